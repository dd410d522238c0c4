import { type FileHandle, mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A recording's description (camera, ship, configuration, template, start) beside its segments. */
export const RECORDING_META_FILE = 'recording.json';

/**
 * Suffix of a segment file still being written: `<seq>_<startMs>.part`. It is not indexed while
 * written; after a crash, start-up recovery keeps its whole fragments as a finished segment.
 */
export const PARTIAL_SUFFIX = '.part';

/** `<seq>_<startMs>.part`: a segment being written names where it starts, so a crash can keep it. */
export function partialFileName(seq: number, startMs: number): string {
  return `${String(seq).padStart(6, '0')}_${startMs}${PARTIAL_SUFFIX}`;
}

export function parsePartialFileName(name: string): { seq: number; startMs: number } | undefined {
  const m = /^(\d{6,})_(\d+)\.part$/.exec(name);
  return m ? { seq: Number(m[1]), startMs: Number(m[2]) } : undefined;
}

/** `<seq>_<startMs>_<endMs>.mp4`: a finished segment names its span, so an unindexed one can be recovered. */
export function segmentFileName(seq: number, startMs: number, endMs: number): string {
  return `${String(seq).padStart(6, '0')}_${startMs}_${endMs}.mp4`;
}

export function parseSegmentFileName(name: string): { seq: number; startMs: number; endMs: number } | undefined {
  const m = /^(\d{6,})_(\d+)_(\d+)\.mp4$/.exec(name);
  if (!m) return undefined;
  const [seq, startMs, endMs] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return endMs >= startMs ? { seq, startMs, endMs } : undefined;
}

/**
 * One segment file being written: bytes go to `<seq>_<startMs>.part`, each write handed to the
 * operating system at once (no buffer in the process: a killed server leaves in the file every
 * fragment written before it died); `finish` flushes it to the disk, renames it to its final name
 * and flushes the folder, so a finished segment is complete on disk before it is indexed, and a
 * crash leaves at most a `.part` file behind, which start-up recovery cuts back to its last whole
 * fragment and keeps.
 */
export class SegmentFile {
  private handle: FileHandle | undefined;
  private bytesWritten = 0;

  private constructor(
    private readonly root: string,
    /** Path of the file being written under root, e.g. `<recordingId>/000003_1700000000000.part`. */
    private readonly partial: string,
  ) {}

  static async create(root: string, recordingId: string, seq: number, startMs: number): Promise<SegmentFile> {
    const file = new SegmentFile(root, join(recordingId, partialFileName(seq, startMs)));
    await mkdir(join(root, recordingId), { recursive: true });
    file.handle = await open(file.partialPath, 'w');
    return file;
  }

  get partialPath(): string {
    return join(this.root, this.partial);
  }

  get bytes(): number {
    return this.bytesWritten;
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.handle) throw new Error('segment file is closed');
    let at = 0;
    while (at < data.length) {
      const { bytesWritten } = await this.handle.write(data, at, data.length - at);
      at += bytesWritten;
    }
    this.bytesWritten += data.length;
  }

  /** Makes the file durable under its final name; answers that name relative to the root. */
  async finish(seq: number, startMs: number, endMs: number): Promise<string> {
    const handle = this.handle;
    if (!handle) throw new Error('segment file is closed');
    this.handle = undefined;
    await handle.sync();
    await handle.close();
    const relative = join(dirname(this.partial), segmentFileName(seq, startMs, endMs));
    await rename(this.partialPath, join(this.root, relative));
    await syncFolder(join(this.root, dirname(this.partial)));
    return relative;
  }

  /** Gives the file up (write error, or nothing worth keeping). */
  async abort(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
    await unlink(this.partialPath).catch(() => undefined);
  }
}

/** fsync of a folder makes a rename in it durable (best effort: not every file system allows it). */
export async function syncFolder(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // e.g. EISDIR/EINVAL on file systems that refuse fsync on a folder
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
