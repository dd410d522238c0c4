import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, clampRange, ObjectNotFoundError, type ObjectStat, type ObjectStore } from './object-store.ts';

const TEMP_MARK = '.tmp-';

/**
 * The local filesystem: key `a/b/c.mp4` is the file `<root>/a/b/c.mp4`. Writes go to a temp name
 * beside the target and are renamed over it, so a reader never sees half an object; folders are
 * 0700 and files 0600, as everything else under DATA_DIR (private-files.ts).
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';

  constructor(readonly root: string) {}

  private path(key: string): string {
    return join(this.root, ...checkKey(key).split('/'));
  }

  async put(key: string, data: Uint8Array | Readable | AsyncIterable<Uint8Array>): Promise<ObjectStat> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}${TEMP_MARK}${randomBytes(6).toString('hex')}`;
    try {
      const source = data instanceof Uint8Array ? Readable.from([data]) : data;
      await pipeline(source, createWriteStream(temp, { mode: 0o600, flags: 'wx' }));
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const s = await stat(path);
    return { key, size: s.size, mtimeMs: s.mtimeMs };
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.path(key));
    } catch (err) {
      throw notFound(err, key);
    }
  }

  async read(key: string, range?: { start: number; end?: number }): Promise<Readable> {
    const s = await this.stat(key);
    if (!s) throw new ObjectNotFoundError(key);
    const { start, end } = clampRange(key, s.size, range);
    if (s.size === 0) return Readable.from([]);
    return createReadStream(this.path(key), { start, end });
  }

  async stat(key: string): Promise<ObjectStat | undefined> {
    try {
      const s = await stat(this.path(key));
      return s.isFile() ? { key, size: s.size, mtimeMs: s.mtimeMs } : undefined;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async list(prefix: string): Promise<ObjectStat[]> {
    // Walk only the folder the prefix names, then filter on the rest of it.
    const cut = prefix.lastIndexOf('/');
    const folder = cut < 0 ? this.root : join(this.root, ...checkKey(prefix.slice(0, cut)).split('/'));
    const found: ObjectStat[] = [];
    await this.walk(folder, found);
    return found.filter((o) => o.key.startsWith(prefix)).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  private async walk(dir: string, into: ObjectStat[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await this.walk(path, into);
      else if (e.isFile() && !e.name.includes(TEMP_MARK)) {
        const s = await stat(path).catch(() => undefined);
        if (s) into.push({ key: relative(this.root, path).split(sep).join('/'), size: s.size, mtimeMs: s.mtimeMs });
      }
    }
  }

  async delete(key: string): Promise<boolean> {
    try {
      await unlink(this.path(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async close(): Promise<void> {}
}

function notFound(err: unknown, key: string): unknown {
  return (err as NodeJS.ErrnoException).code === 'ENOENT' ? new ObjectNotFoundError(key) : err;
}
