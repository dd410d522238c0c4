import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { syntheticCameras, SPEAKER_SAMPLE_RATE } from '@ship-cctv/simulator';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { MediaClient } from '../../../apps/server/test/helpers/media-client.ts';
import { type Shore, signIn, startShore } from './helpers/shore.ts';
import { TalkClient } from './helpers/talk-client.ts';
import { opusPackets } from '../../../apps/agent/test/talk/opus-fixture.ts';

/**
 * The whole loop an operator hears: their voice goes down the link to the ship, the ship's speaker
 * (for the synthetic camera: its own sound) plays it, and it comes back up in the camera's live
 * sound to the viewer — nothing in the test plays the speaker but the agent's own wiring.
 */
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const TONE_HZ = 1000;
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const tmp = tempDir('talk-echo-');
const run = promisify(execFile);

/** Goertzel: the power of `hz` in pcm[from, to), normalised by the block length. */
function powerAt(pcm: Int16Array, hz: number, from: number, to: number): number {
  const k = 2 * Math.cos((2 * Math.PI * hz) / SPEAKER_SAMPLE_RATE);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s0 = (pcm[i] ?? 0) + k * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - k * s1 * s2) / (to - from) ** 2;
}

describe('talkback heard back in the camera sound', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  const viewers: MediaClient[] = [];
  const talkers: TalkClient[] = [];

  beforeAll(async () => {
    shore = await startShore();
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent(
      { shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 100, maxBackoffMs: 300, recorder: { dataDir: join(tmp.dir, 'agent') } },
    );
    agent.start();
    const deadline = Date.now() + 10_000;
    while (!shore.app.agents.get(SHIP)?.capabilities.has('talk')) {
      if (Date.now() > deadline) throw new Error('the agent did not say hello with talk');
      await new Promise((r) => setTimeout(r, 50));
    }
    token = await signIn(shore.app);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(viewers.map((c) => c.close()));
    for (const t of talkers) t.terminate();
    await agent?.stop();
    await shore?.close();
    tmp.remove();
  });

  it('a 1 kHz voice sent down comes back up in the live sound, and only while it is spoken', async () => {
    const viewer = await MediaClient.open(shore.port, token);
    viewers.push(viewer);
    viewer.send({ type: 'play', mode: 'live', cameraId: CAMERA });
    await viewer.until((c) => c.event('codec') !== undefined && c.chunks.length > 20, 20_000, 'frames');
    // A second of the camera's own sound before anyone talks.
    await new Promise((r) => setTimeout(r, 1_500));

    const packets = await opusPackets(2, 12, TONE_HZ);
    const talk = await TalkClient.open(shore.port, token);
    talkers.push(talk);
    talk.start(CAMERA);
    await talk.waitFor('talk.started');
    for (let i = 0; i < packets.length; i += 3) talk.sendPackets(packets.slice(i, i + 3));
    // The ship plays the voice in real time (2 s), then the live sound carries it up.
    await new Promise((r) => setTimeout(r, 3_500));
    talk.stop();
    await talk.waitFor('talk.ended');

    const file = join(tmp.dir, 'live.mp4');
    writeFileSync(file, Buffer.concat(viewer.chunks));
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', String(SPEAKER_SAMPLE_RATE), 'pipe:1'], {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    });
    const bytes = stdout as unknown as Buffer;
    const pcm = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    const window = SPEAKER_SAMPLE_RATE / 4;
    const powers: number[] = [];
    for (let at = 0; at + window <= pcm.length; at += window) powers.push(powerAt(pcm, TONE_HZ, at, at + window));
    // Before the talk: the first second of sound is hum and ticks only.
    const before = Math.max(...powers.slice(0, 4));
    const loudest = Math.max(...powers);
    expect(powers.length).toBeGreaterThan(16);
    expect(loudest).toBeGreaterThan(before * 100);
    // The voice lasts its two seconds (±): windows of a quarter second well above the camera's own sound.
    const voiced = powers.filter((p) => p > before * 100).length / 4;
    expect(voiced).toBeGreaterThan(1.25);
    expect(voiced).toBeLessThan(3);
  }, 60_000);
});
