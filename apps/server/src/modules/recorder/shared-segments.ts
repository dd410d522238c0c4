import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { ObjectStat, ObjectStore } from '../../core/storage/object-store.ts';

/** Key prefix of shore recordings in the shared object store. */
export const RECORDINGS_PREFIX = 'recordings/';

/**
 * Shore recordings in the shared object store (STORAGE=nats): a finished segment file is copied to
 * `recordings/<recordingId>/<seq>_<start>_<end>.mp4` before it is indexed, and a finished clip to
 * `clips/<jobId>.mp4`, so the instance that serves them need not be the one that wrote them.
 */
export class SharedSegments {
  constructor(readonly store: ObjectStore) {}

  static key(relative: string): string {
    return RECORDINGS_PREFIX + relative.split(/[\\/]/).join('/');
  }

  async upload(root: string, relative: string): Promise<void> {
    await this.store.put(SharedSegments.key(relative), createReadStream(join(root, relative)));
  }

  get(relative: string): Promise<Buffer> {
    return this.store.get(SharedSegments.key(relative));
  }

  async delete(relative: string): Promise<void> {
    await this.store.delete(SharedSegments.key(relative));
  }

  /** A finished clip goes to `clips/<jobId>.mp4`, so any instance can hand it out. */
  async putClip(id: string, path: string): Promise<void> {
    await this.store.put(`clips/${id}.mp4`, createReadStream(path));
  }

  statClip(id: string): Promise<ObjectStat | undefined> {
    return this.store.stat(`clips/${id}.mp4`);
  }

  readClip(id: string): Promise<Readable> {
    return this.store.read(`clips/${id}.mp4`);
  }

  async deleteClip(id: string): Promise<void> {
    await this.store.delete(`clips/${id}.mp4`);
  }

  stat(relative: string): Promise<ObjectStat | undefined> {
    return this.store.stat(SharedSegments.key(relative));
  }

  read(relative: string, range?: { start: number; end?: number }): Promise<Readable> {
    return this.store.read(SharedSegments.key(relative), range);
  }
}
