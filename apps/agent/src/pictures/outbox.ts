import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The pictures waiting to cross to shore, in the order they go: a picture an operator waits for
 * (a snapshot, one opened from the list) before what a task took. Kept in one small file written
 * through a temporary name and a rename at every change, so an agent restart, a crash or a power
 * cut loses none and sends none twice that shore has acknowledged. Only shore's `stored` takes a
 * picture out; where a transfer stopped is shore's to say (it answers an offer with the byte to
 * resume from), so nothing about partial transfers is kept here.
 */
export class Outbox {
  private ids: string[] = [];

  constructor(private readonly file: string | undefined) {
    if (file) {
      mkdirSync(dirname(file), { recursive: true });
      this.ids = readIds(file);
    }
  }

  get length(): number {
    return this.ids.length;
  }

  /** The ids in sending order. */
  get all(): readonly string[] {
    return this.ids;
  }

  /** The next picture to send. */
  peek(): string | undefined {
    return this.ids[0];
  }

  has(pictureId: string): boolean {
    return this.ids.includes(pictureId);
  }

  /** Adds a picture: `urgent` ones go before everything not urgent (after earlier urgent ones). */
  add(pictureId: string, urgent: boolean, isUrgent: (id: string) => boolean = () => false): void {
    if (this.ids.includes(pictureId)) return;
    if (!urgent) this.ids.push(pictureId);
    else {
      const at = this.ids.findIndex((id) => !isUrgent(id));
      if (at < 0) this.ids.push(pictureId);
      else this.ids.splice(at, 0, pictureId);
    }
    this.save();
  }

  /** Moves a waiting picture to the front (an operator opened it). Returns its position before, or -1. */
  promote(pictureId: string): number {
    const at = this.ids.indexOf(pictureId);
    if (at > 0) {
      this.ids.splice(at, 1);
      this.ids.unshift(pictureId);
      this.save();
    }
    return at;
  }

  /** Shore holds it (or it is gone from the ship): it leaves the outbox. */
  remove(pictureId: string): boolean {
    const at = this.ids.indexOf(pictureId);
    if (at < 0) return false;
    this.ids.splice(at, 1);
    this.save();
    return true;
  }

  private save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ pictures: this.ids }));
    renameSync(tmp, this.file);
  }
}

function readIds(file: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pictures?: unknown };
    return Array.isArray(parsed.pictures) ? parsed.pictures.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
