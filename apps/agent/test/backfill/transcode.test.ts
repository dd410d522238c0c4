import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type VideoDefinition, videoDefinition, wholeFragments } from '@ship-cctv/media';
import { filePart } from '../../src/backfill/file-part.ts';
import { backfillPlan, startTranscoding } from '../../src/backfill/transcode.ts';
import { probeFile, run, spec, tempDir } from '../media/helpers.ts';

const tmp = tempDir('backfill-transcode-');
const START = 1_800_000_000_000;
const recorded: VideoDefinition = { width: 640, height: 360, frameRate: 10, bitrateKbps: 600, codec: 'avc1.64001e', durationMs: 2_000 };

describe('backfill in the definition shore asks for', () => {
  it('copies the ship’s own bytes unless the ask saves a quarter of them, and transcodes only down', () => {
    expect(backfillPlan(recorded, spec(640, 360, 10, 800))).toEqual({ copy: true });
    // Asking for more than was recorded gains nothing: copied.
    expect(backfillPlan(recorded, spec(1280, 720, 15, 1200))).toEqual({ copy: true });
    // A smaller picture at nearly the bits recorded: the same bytes, a better picture as it is.
    expect(backfillPlan(recorded, spec(320, 180, 5, 500))).toEqual({ copy: true });
    expect(backfillPlan(recorded, spec(320, 180, 5, 150))).toEqual({ copy: false, encode: spec(320, 180, 5, 150) });
    // Fewer bits at a larger size: the recorded size stays, the bits go down.
    expect(backfillPlan(recorded, spec(1280, 720, 15, 300))).toEqual({ copy: false, encode: spec(640, 360, 10, 300) });
    // Never more pictures than recorded.
    expect(backfillPlan({ ...recorded, frameRate: 3 }, spec(320, 180, 5, 150))).toEqual({ copy: false, encode: spec(320, 180, 3, 150) });
    // H.265 recorded: the shore recording is H.264, so it is transcoded even at the same size and bits.
    expect(backfillPlan({ ...recorded, codec: 'hvc1.1.6.L93.B0' }, spec(640, 360, 10, 800))).toEqual({ copy: false, encode: spec(640, 360, 10, 600) });
  });

  describe('a recorded span transcoded', () => {
    let path: string;
    beforeAll(async () => {
      path = join(tmp.dir, 'segment.mp4');
      await run('ffmpeg', [
        '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=10', '-t', '4',
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-bf', '0',
        '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '500000', path,
      ]);
    });
    afterAll(() => tmp.remove());

    it('comes out as fragmented MP4 in the size, rate and bits asked, fewer bytes than the copy, the span’s length', async () => {
      const part = await filePart(path, START, START + 4_000, START + 1_000, START + 3_000);
      const copy = Buffer.concat(part.ranges.map((r) => readFileSync(path).subarray(r.from, r.to)));
      const plan = backfillPlan(part.definition!, spec(320, 180, 5, 150));
      expect(plan.copy).toBe(false);
      if (plan.copy) return;
      const out: Uint8Array[] = [];
      const transcoding = startTranscoding(plan.encode, (chunk) => out.push(chunk));
      await transcoding.write(copy);
      await transcoding.end();
      const bytes = Buffer.concat(out);
      const media = wholeFragments(bytes);
      expect(media?.bytes).toBe(bytes.length);
      const measured = videoDefinition(media!);
      expect(measured).toMatchObject({ width: 320, height: 180, frameRate: 5 });
      expect(Math.abs(measured!.durationMs - (part.end - part.start))).toBeLessThanOrEqual(200);
      expect(bytes.length).toBeLessThan(copy.length);
      const file = join(tmp.dir, 'out.mp4');
      writeFileSync(file, bytes);
      expect(await probeFile(file)).toMatchObject({ codec: 'h264', width: 320, height: 180, frameRate: '5/1' });
    });

    it('says why when ffmpeg cannot make it', async () => {
      const transcoding = startTranscoding(spec(320, 180, 5, 150), () => undefined);
      await transcoding.write(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
      await expect(transcoding.end()).rejects.toThrow(/ffmpeg ended with/);
    });
  });
});
