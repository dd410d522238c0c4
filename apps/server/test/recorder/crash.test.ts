import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeFragments } from '@ship-cctv/media';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/core/db/client.ts';
import * as t from '../../src/core/db/schema.ts';
import { PARTIAL_SUFFIX, partialFileName, segmentFileName } from '../../src/modules/recorder/segment-file.ts';
import { POSTGRES_ADMIN_URL, freshDatabase } from '../helpers/database.ts';
import { makeClip } from '../media/helpers.ts';
import { decodesCleanly, fakeSource, feed, liveStream, segmentFilesIn } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const CAMERA = 'S1001-C01-1';

async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 60_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Drops without force while the closed pool's connections finish leaving (a forced drop would kill them mid-goodbye). */
async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await admin.query(`drop database if exists ${name}${i >= 50 ? ' with (force)' : ''}`);
      return;
    } catch (err) {
      if (i >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const partials = (root: string) =>
  existsSync(root) ? readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith(PARTIAL_SUFFIX)) : [];

describe('shore recorder crash safety', () => {
  const dirs: string[] = [];
  const temp = () => {
    const d = mkdtempSync(join(tmpdir(), 'recorder-crash-'));
    dirs.push(d);
    return d;
  };
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a server killed in the middle of a segment keeps it up to its last whole fragment: at most 1 s of media lost, every segment listed and playable', async () => {
    const dir = temp();
    const root = join(dir, 'recordings');
    const clip = await makeClip(dir, { name: 'live', width: 320, height: 180, profile: 'baseline', seconds: 20, rate: 10, gop: 10 });
    const name = `shipcctv_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${name}`;
    try {
      // Segments of 4 s: the one being written when the server dies holds more than a second of video.
      child = spawn(process.execPath, ['--import', 'tsx', join('apps/server/test/recorder/fixtures/record-until-killed.ts'), url.toString(), root, clip, '4'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        child!.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child!.once('exit', (code) => reject(new Error(`recording server exited early (${code})`)));
      });
      const watcher = await openDatabase({ url: url.toString() });
      try {
        // Wait for a finished segment and the next one 2 s into its writing, then kill without warning
        // at the worst moment: a fragment (one frame) just written, the next one most of a frame away.
        const wholeInPartial = () => {
          const part = partials(root)[0];
          return part ? wholeFragments(readFileSync(join(root, part))) : undefined;
        };
        await until('an indexed segment and 2 s of the next one written', async () => {
          const rows = await watcher.db.select().from(t.recordingSegments);
          const whole = wholeInPartial();
          return rows.length >= 1 && whole && (whole.endTick - whole.startTick) / whole.init.timescale >= 2 ? true : undefined;
        });
        const landed = wholeInPartial()?.fragments ?? 0;
        await until('the next fragment written', () => ((wholeInPartial()?.fragments ?? 0) > landed ? true : undefined), 10_000, 5);
        await new Promise((r) => setTimeout(r, 80));
        const killedAt = Date.now();
        child.kill('SIGKILL');
        await new Promise((r) => child!.once('exit', r));
        const left = partials(root);
        expect(left).toHaveLength(1);
        const [recording] = await watcher.db.select().from(t.recordings);
        expect(recording?.open).toBe(true);
        const indexedBefore = await watcher.db.select().from(t.recordingSegments).where(eq(t.recordingSegments.recordingId, recording!.id));

        // Start again on the same database and folder.
        const app = await buildApp({ database: watcher, recorder: { settings: { dir: root } } });
        await app.ready();
        try {
          expect(partials(root)).toEqual([]);
          const after = await app.recordings.recording(recording!.id);
          expect(after?.open).toBe(false);
          const segments = await app.recordings.segments(recording!.id);
          // The segment being written is listed too, with the span of its whole fragments.
          expect(segments).toHaveLength(indexedBefore.length + 1);
          for (const [i, s] of segments.entries()) {
            expect(await decodesCleanly(join(root, s.file))).toBe(true);
            expect(statSync(join(root, s.file)).size).toBe(s.bytes);
            if (i > 0) expect(s.startMs).toBe(segments[i - 1]!.endMs);
          }
          expect(segmentFilesIn(join(root, recording!.id))).toEqual(segments.map((s) => s.file.split('/')[1]).sort());
          expect(after?.segments).toBe(segments.length);
          const kept = segments.at(-1)!;
          expect(after?.endMs).toBe(kept.endMs);
          expect(kept.endMs - kept.startMs).toBeGreaterThanOrEqual(2_000);
          // Media lost: from the recovered segment's end (the last whole fragment written) to the kill.
          // Each fragment is one 100 ms frame, given to the recorder in real time, so no encoder latency is in it.
          const lostMs = killedAt - kept.endMs;
          console.log(`shore recorder killed (SIGKILL) mid-segment, 80 ms after a 100 ms fragment was written: media lost ${lostMs} ms (recovered segment ${kept.endMs - kept.startMs} ms)`);
          expect(lostMs).toBeLessThanOrEqual(1_000);
          // Nothing is placed after the kill (a frame's rounding aside).
          expect(lostMs).toBeGreaterThanOrEqual(-5);
        } finally {
          await app.close();
        }
      } finally {
        await watcher.close();
      }
    } finally {
      await dropDatabase(admin, name);
      await admin.end();
    }
  }, 120_000);

  it('start-up keeps a segment being written up to its last whole fragment, listed and playable', async () => {
    const dir = temp();
    const root = join(dir, 'recordings');
    const stream = await liveStream(dir, 'live', 6);
    const database = await freshDatabase('pglite');
    try {
      const first = await buildApp({ seedDemo: true, database, recorder: { settings: { dir: root, segmentSeconds: 2 } } });
      await first.ready();
      feed(first.recorder, fakeSource(CAMERA, 'S1001'), stream);
      await first.recorder.settled();
      const [rec] = await database.db.select().from(t.recordings);
      const segments = await first.recordings.segments(rec!.id);
      expect(segments).toHaveLength(3);
      await first.close();

      // As if the server died while writing a fourth segment: 15 whole frames, the 16th half written.
      await database.db.update(t.recordings).set({ open: true }).where(eq(t.recordings.id, rec!.id));
      const whole = [stream.init.data, ...stream.fragments.slice(0, 15).map((f) => f.data)];
      const half = stream.fragments[15]!.data.subarray(0, stream.fragments[15]!.size >> 1);
      const wholeBytes = whole.reduce((n, p) => n + p.length, 0);
      const lastEnd = segments.at(-1)!.endMs;
      writeFileSync(join(root, rec!.id, partialFileName(3, lastEnd)), Buffer.concat([...whole, half]));

      const second = await buildApp({ database, recorder: { settings: { dir: root } } });
      await second.ready();
      try {
        const now = await second.recordings.segments(rec!.id);
        expect(now).toHaveLength(4);
        const kept = now[3]!;
        const frameMs = (stream.fragments[0]!.duration * 1000) / stream.init.timescale;
        expect(kept).toMatchObject({ seq: 3, startMs: lastEnd, endMs: lastEnd + Math.round(15 * frameMs), bytes: wholeBytes });
        expect(statSync(join(root, kept.file)).size).toBe(wholeBytes);
        expect(await decodesCleanly(join(root, kept.file))).toBe(true);
        expect(partials(root)).toEqual([]);
        expect(await second.recordings.recording(rec!.id)).toMatchObject({ open: false, segments: 4, endMs: kept.endMs });
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  }, 60_000);

  it.each(['pglite', 'postgres'] as const)('on %s, start-up indexes a finished but unindexed segment and removes partial and orphaned files', async (kind) => {
    const dir = temp();
    const root = join(dir, 'recordings');
    const stream = await liveStream(dir, 'live', 6);
    const database = await freshDatabase(kind);
    try {
      const first = await buildApp({ seedDemo: true, database, recorder: { settings: { dir: root, segmentSeconds: 2 } } });
      await first.ready();
      feed(first.recorder, fakeSource(CAMERA, 'S1001'), stream);
      await first.recorder.settled();
      const [rec] = await database.db.select().from(t.recordings);
      const segments = await first.recordings.segments(rec!.id);
      expect(segments).toHaveLength(3);
      await first.close();

      // As if the server died between renaming the last segment and indexing it, while the recording was open…
      const last = segments.at(-1)!;
      await database.db.delete(t.recordingSegments).where(eq(t.recordingSegments.id, last.id));
      await database.db.update(t.recordings).set({ open: true, segments: 2 }).where(eq(t.recordings.id, rec!.id));
      // …with a half-written next segment, a file the index has already let go, and a folder of an unknown recording.
      writeFileSync(join(root, rec!.id, `000003${PARTIAL_SUFFIX}`), Buffer.alloc(5000, 7));
      // (one without a single whole fragment: nothing in it to keep)
      const half = stream.fragments[0]!.data.subarray(0, stream.fragments[0]!.size >> 1);
      writeFileSync(join(root, rec!.id, partialFileName(3, last.endMs)), Buffer.concat([stream.init.data, half]));
      copyFileSync(join(root, segments[0]!.file), join(root, rec!.id, segmentFileName(0, 1, 2)));
      mkdirSync(join(root, 'no-such-recording'));
      writeFileSync(join(root, 'no-such-recording', segmentFileName(0, 1, 2)), 'x');

      const second = await buildApp({ database, recorder: { settings: { dir: root } } });
      await second.ready();
      try {
        const now = await second.recordings.segments(rec!.id);
        expect(now.map((s) => [s.seq, s.startMs, s.endMs, s.bytes])).toEqual(segments.map((s) => [s.seq, s.startMs, s.endMs, s.bytes]));
        expect(segmentFilesIn(join(root, rec!.id))).toEqual(segments.map((s) => s.file.split('/')[1]).sort());
        expect(existsSync(join(root, 'no-such-recording'))).toBe(false);
        const after = await second.recordings.recording(rec!.id);
        expect(after).toMatchObject({ open: false, segments: 3, endMs: last.endMs });
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  }, 60_000);
});
