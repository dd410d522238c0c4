/**
 * What ship playback of the synthetic camera sends up the link and costs the ship, per speed: bytes
 * per minute of playing (against one live stream and against speed × bitrate), frames per played
 * second, recorded seconds per played second, and the CPU of the ffmpeg runs per played second.
 * Real PlaybackStreams over a recorder, a counting link in place of the socket. From the repository root:
 *   node --import tsx packages/simulator/bench/ship-playback.bench.ts [width height fps kbps playedSeconds]
 * Defaults: the default template 640 360 10 400, 20 s of playing per speed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type AgentPlaybackMessage, PLAYBACK_SPEEDS, type PlaybackSpeed, decodeStreamFrame } from '@ship-cctv/protocol';
import { CameraSources, PlaybackStreams, ShipRecorder } from '@ship-cctv/agent';
import { syntheticCameras } from '../src/camera/synthetic-camera.ts';

const [width = 640, height = 360, fps = 10, kbps = 400, playedSeconds = 20] = process.argv.slice(2).map(Number);
const encode = { width, height, frameRate: fps, bitrateKbps: kbps, codec: 'h264' as const };
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
const HOUR = 3_600_000;

function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0;
  }
}

const recorder = new ShipRecorder(new CameraSources([{ cameraId: 'BENCH-C01-1', source: 'synthetic', name: 'Bench 甲板' }], { kinds: [syntheticCameras()] }));
recorder.start();
const now = Date.now();
const span = (recorder.spans('BENCH-C01-1', now - 48 * HOUR, now) ?? []).find((s) => s.end - s.start > 30 * 60_000);
if (!span) throw new Error('no recorded span of 30 minutes');

console.log(`template ${width}×${height} @ ${fps} fps, ${kbps} kbit/s; ${playedSeconds} s of playing per speed`);
console.log(`one live stream: ${Math.round((kbps * 1000 * 60) / 8 / 1000)} kB/min\n`);
console.log('speed | kB per played min | × live | ÷ (speed × bitrate) | frames/s | recorded s per played s | ffmpeg CPU per played s');
for (const speed of [1, 4, 16, ...PLAYBACK_SPEEDS.filter((s) => ![1, 4, 16].includes(s))] as PlaybackSpeed[]) {
  let bytes = 0;
  let fragments = 0;
  const messages: AgentPlaybackMessage[] = [];
  const playback = new PlaybackStreams(recorder);
  playback.attach({
    sendJson: (m) => messages.push(m),
    sendBinary: (frame) => {
      const f = decodeStreamFrame(frame);
      if (!f) return;
      bytes += f.payload.length;
      fragments += 1;
    },
    bufferedAmount: () => 0,
  });
  const start = span.start + 60_000;
  const end = start + playedSeconds * speed * 1000;
  const t0 = Date.now();
  playback.handle({ type: 'playback.start', streamId: speed, cameraId: 'BENCH-C01-1', encode, start, end, from: start, speed });
  let cpu = 0;
  const sampler = setInterval(() => {
    for (const pid of playback.pids()) cpu = Math.max(cpu, cpuSeconds(pid));
  }, 250);
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      const last = messages.at(-1);
      if (last?.type === 'playback.ended') resolve();
      if (last?.type === 'playback.failed') reject(new Error(last.message));
      if (last?.type === 'playback.ended' || last?.type === 'playback.failed') clearInterval(check);
    }, 50);
  });
  clearInterval(sampler);
  const played = (Date.now() - t0) / 1000;
  const perMinute = (bytes / played) * 60;
  const live = (kbps * 1000 * 60) / 8;
  const positions = messages.filter((m) => m.type === 'playback.position').map((m) => (m.type === 'playback.position' ? m.time : 0));
  const recordedPerPlayed = ((positions.at(-1) ?? start) - start) / 1000 / played;
  console.log(
    `${String(speed).padStart(4)}× | ${(perMinute / 1000).toFixed(0).padStart(17)} | ${(perMinute / live).toFixed(2).padStart(6)} | ${(perMinute / (live * speed)).toFixed(3).padStart(19)} | ${(fragments / played).toFixed(1).padStart(8)} | ${recordedPerPlayed.toFixed(1).padStart(23)} | ${(cpu / played).toFixed(3).padStart(8)} s`,
  );
  await playback.stopAll();
}
await recorder.stop();
