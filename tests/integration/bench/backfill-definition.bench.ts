/**
 * What backfill in a lower definition saves, on the ship's side of the link: a minute of camera
 * recorded as the ship recorder writes it (one 60 s segment file, fragments of half a second, a
 * keyframe each second), sent as a copy and transcoded by the agent's backfill transcoder into the
 * demo's definitions — the bytes that would cross for the minute and how long the ship's ffmpeg
 * took (wall clock, on this machine). Two cameras: the shore's standard size (640×360) and the
 * link sub-stream size most ships record (320×180). Not part of npm test; from the repository root:
 *
 *   node scripts/node-runtime.mjs --import tsx tests/integration/bench/backfill-definition.bench.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EncodeSpec } from '@ship-cctv/protocol';
import { filePart } from '../../../apps/agent/src/backfill/file-part.ts';
import { backfillPlan, startTranscoding } from '../../../apps/agent/src/backfill/transcode.ts';
import { run, tempDir } from '../../../apps/agent/test/media/helpers.ts';

const tmp = tempDir('backfill-definition-bench-');
const DEFINITIONS: Record<string, EncodeSpec> = {
  'standard 640×360@10 400k': { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' },
  'lowest 320×180@5 150k': { width: 320, height: 180, frameRate: 5, bitrateKbps: 150, codec: 'h264' },
  'satellite 320×180@3 32k': { width: 320, height: 180, frameRate: 3, bitrateKbps: 32, codec: 'h264' },
};

/** A minute of a moving test picture, as the ship recorder keeps it. */
async function minute(width: number, height: number): Promise<string> {
  const path = join(tmp.dir, `${width}x${height}.mp4`);
  await run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=10`, '-t', '60',
    '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', '10', '-keyint_min', '10', '-sc_threshold', '0', '-bf', '0',
    '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '500000', path,
  ]);
  return path;
}

try {
  const START = Date.now();
  for (const [width, height] of [
    [640, 360],
    [320, 180],
  ] as const) {
    const path = await minute(width, height);
    const part = await filePart(path, START, START + 60_000, START, START + 60_000);
    const file = readFileSync(path);
    console.log(`camera ${width}×${height} at 10 fps: copy of the minute ${part.bytes} B (${part.definition?.bitrateKbps} kbit/s)`);
    for (const [name, encode] of Object.entries(DEFINITIONS)) {
      const plan = backfillPlan(part.definition!, encode);
      if (plan.copy) {
        console.log(`  ${name}: copied (the ask would save under a quarter of the bytes) — ${part.bytes} B`);
        continue;
      }
      let bytes = 0;
      const began = performance.now();
      const transcoding = startTranscoding(plan.encode, (chunk) => (bytes += chunk.length));
      for (const r of part.ranges) await transcoding.write(file.subarray(r.from, r.to));
      await transcoding.end();
      const ms = performance.now() - began;
      console.log(
        `  ${name}: transcoded to ${plan.encode.width}×${plan.encode.height}@${plan.encode.frameRate} ${plan.encode.bitrateKbps}k — ${bytes} B ` +
          `(${((bytes * 8) / 60 / 1000).toFixed(0)} kbit/s, ${(bytes / part.bytes).toFixed(3)}× the copy), ${(ms / 1000).toFixed(1)} s of ffmpeg`,
      );
    }
  }
} finally {
  tmp.remove();
}
