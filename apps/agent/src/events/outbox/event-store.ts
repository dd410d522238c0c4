import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_PICTURE_MAX_BYTES, type ShipEvent, shipEventRefusal } from '@ship-cctv/protocol';

/**
 * The events waiting to cross to shore, one pair of files each in one folder: `<id>.jpg` (the best
 * picture) and `<id>.json` (the record). The picture is written first and the record last, each
 * through a temporary name and a rename, so a record on disk always has its whole picture: an
 * agent restart, a crash or a power cut between the two leaves only a picture without a record,
 * which the next start removes. Removing writes in the other order (record first). Nothing here
 * knows of the link: the sender (ship-events.ts) takes an event out when shore has stored it.
 */
export class EventStore {
  private readonly held = new Map<string, ShipEvent>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    const names = readdirSync(dir);
    for (const name of names) {
      if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
      if (!name.endsWith('.json')) continue;
      const event = readEvent(join(dir, name));
      const id = name.slice(0, -'.json'.length);
      if (event && event.eventId === id && this.readPicture(event)) this.held.set(id, event);
      else this.dropFiles(id);
    }
    // Pictures whose record was never written (the agent stopped between the two).
    for (const name of names) {
      if (name.endsWith('.jpg') && !this.held.has(name.slice(0, -'.jpg'.length))) rmSync(join(dir, name), { force: true });
    }
  }

  get size(): number {
    return this.held.size;
  }

  has(eventId: string): boolean {
    return this.held.has(eventId);
  }

  get(eventId: string): ShipEvent | undefined {
    return this.held.get(eventId);
  }

  /** The events in sending order: oldest first (by start, then id). */
  ordered(): ShipEvent[] {
    return [...this.held.values()].sort((a, b) => a.start - b.start || (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
  }

  /**
   * Keeps an event and its picture on disk; returns when both are written. The record must be a
   * ShipEvent and the picture the one it describes (size and SHA-256), else nothing is kept and
   * the reason is thrown: a wrong record would be refused by shore after crossing the link. An
   * event held already gets the new record (the event went on after it was sent), with its picture.
   */
  put(event: ShipEvent, jpeg: Uint8Array): void {
    const reason = refusal(event, jpeg);
    if (reason) throw new Error(`event ${event.eventId}: ${reason}`);
    const before = this.held.get(event.eventId);
    if (before) {
      // A new record of an event held (it went on after it was sent): its picture is the one on disk.
      if (before.picture.sha256 !== event.picture.sha256) throw new Error(`event ${event.eventId}: the picture of an event held does not change`);
      if (JSON.stringify(before) === JSON.stringify(event)) return;
    } else {
      writeAtomically(this.picturePath(event.eventId), jpeg);
    }
    writeAtomically(this.recordPath(event.eventId), JSON.stringify(event));
    this.held.set(event.eventId, event);
  }

  /** The picture's bytes, or undefined when its file is gone or no longer matches its record. */
  readPicture(event: ShipEvent): Buffer | undefined {
    try {
      const bytes = readFileSync(this.picturePath(event.eventId));
      return bytes.length === event.picture.bytes && sha256(bytes) === event.picture.sha256 ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  remove(eventId: string): boolean {
    if (!this.held.delete(eventId)) return false;
    this.dropFiles(eventId);
    return true;
  }

  private dropFiles(eventId: string): void {
    rmSync(this.recordPath(eventId), { force: true });
    rmSync(this.picturePath(eventId), { force: true });
  }

  private recordPath(eventId: string): string {
    return join(this.dir, `${eventId}.json`);
  }

  private picturePath(eventId: string): string {
    return join(this.dir, `${eventId}.jpg`);
  }
}

/** Why a record and picture cannot go to shore as they are, or undefined when they can. */
export function refusal(event: ShipEvent, jpeg: Uint8Array): string | undefined {
  const wrong = shipEventRefusal(event);
  if (wrong) return `not an event record: ${wrong}`;
  if (jpeg.length > EVENT_PICTURE_MAX_BYTES) return `the picture is ${jpeg.length} bytes, more than ${EVENT_PICTURE_MAX_BYTES}`;
  if (jpeg.length !== event.picture.bytes) return `the picture is ${jpeg.length} bytes, the record says ${event.picture.bytes}`;
  if (sha256(jpeg) !== event.picture.sha256) return 'the picture does not match the SHA-256 of the record';
  return undefined;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function readEvent(file: string): ShipEvent | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as ShipEvent;
    return shipEventRefusal(value) === undefined ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeAtomically(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
