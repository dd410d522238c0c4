import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkReport } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { SPEAKER_RATE } from '../../../apps/agent/src/talk/pcm-decoder.ts';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { type Shore, scrapeMetrics, signIn, startShore } from './helpers/shore.ts';
import { TalkClient } from './helpers/talk-client.ts';
import { measureAudio, opusPackets, pcmDb } from '../../../apps/agent/test/talk/opus-fixture.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

/**
 * Talkback end to end: a browser-like client talks over the media socket of a real shore to a
 * real agent, whose talk handler keeps the voice in a file and hands PCM to the ship's speaker.
 */
const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const report: LinkReport = { linkType: 'FOURTHG', quality: 90, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const tmp = tempDir('talk-link-');
const run = promisify(execFile);

describe('talkback to the ship', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let token: string;
  const dataDir = join(tmp.dir, 'agent');
  const heard: Int16Array[] = [];

  beforeAll(async () => {
    shore = await startShore();
    const key = await shore.app.agentKeys.issue(SHIP);
    agent = new ShipAgent(
      { shoreUrl: shore.url, shipId: SHIP, key, cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 100, maxBackoffMs: 300, recorder: { dataDir }, talk: { speaker: { play: (cameraId, pcm) => cameraId === CAMERA && heard.push(pcm) } } },
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
    await agent?.stop();
    await shore?.close();
  });

  it("turns a talk's Opus into a file with energy and PCM for the speaker, counted as talk bytes", async () => {
    const packets = await opusPackets(3);
    const client = await TalkClient.open(shore.port, token);
    client.start(CAMERA);
    let sent = 0;
    // Three 60 ms packets per message, as the browser sends them (not paced: the link is loopback).
    for (let i = 0; i < packets.length; i += 3) sent += client.sendPackets(packets.slice(i, i + 3));
    const started = await client.waitFor('talk.started');
    expect(started.talker).toBe('Demo Operator');
    const ended = new Promise<{ file: string | undefined; seconds: number }>((resolve) => agent.talk.once('ended', resolve));
    await expect.poll(() => heard.reduce((n, p) => n + p.length, 0), { timeout: 10_000 }).toBeGreaterThan(2 * SPEAKER_RATE);
    client.stop();
    expect((await client.waitFor('talk.ended')).reason).toBe('stopped');
    const talk = await ended;

    expect(talk.seconds).toBeCloseTo((packets.length * 60) / 1000, 3);
    expect(talk.file).toMatch(/talk\/S1001-C01-1\/[\dT.Z-]+\.ogg$/);
    expect(readdirSync(join(dataDir, 'talk', CAMERA)).filter((f) => f.endsWith('.ogg'))).toHaveLength(1);
    const measured = await measureAudio(talk.file ?? '');
    expect(measured.seconds).toBeGreaterThan(2.8);
    expect(measured.meanDb).toBeGreaterThan(-30);

    const all = new Int16Array(heard.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of heard) {
      all.set(p, at);
      at += p.length;
    }
    expect(all.length / SPEAKER_RATE).toBeGreaterThan(2.8);
    expect(pcmDb(all)).toBeGreaterThan(-30);

    const metrics = await scrapeMetrics(shore.app);
    const talkDown = Number(/shipcctv_link_bytes_total\{[^}]*direction="down"[^}]*purpose="talk"[^}]*\} (\d+)/.exec(metrics)?.[1] ?? 0);
    // Every packed message went down with its 5-byte frame header and WebSocket framing.
    expect(talkDown).toBeGreaterThan(sent);
  }, 30_000);

  it("keeps the MediaRecorder fallback's WebM as it came and decodes it for the speaker", async () => {
    const { stdout } = await run(
      'ffmpeg',
      ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=300:sample_rate=48000:duration=2', '-ac', '1', '-c:a', 'libopus', '-b:a', '12k', '-f', 'webm', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
    );
    const webm = new Uint8Array(stdout);
    heard.length = 0;
    const client = await TalkClient.open(shore.port, token);
    client.start(CAMERA, 'webm');
    // Cut as MediaRecorder cuts it: slices of whatever size.
    for (let at = 0; at < webm.length; at += 700) client.sendBytes(webm.subarray(at, at + 700));
    await client.waitFor('talk.started');
    await expect.poll(() => heard.reduce((n, p) => n + p.length, 0), { timeout: 10_000 }).toBeGreaterThan(1.5 * SPEAKER_RATE);
    const ended = new Promise<{ file: string | undefined }>((resolve) => agent.talk.once('ended', resolve));
    client.stop();
    const talk = await ended;
    expect(talk.file).toMatch(/\.webm$/);
    expect(readFileSync(talk.file ?? '')).toEqual(Buffer.from(webm));
    const all = new Int16Array(heard.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of heard) {
      all.set(p, at);
      at += p.length;
    }
    expect(pcmDb(all)).toBeGreaterThan(-30);
  }, 30_000);

  it('answers occupied for a second talk to the same ship, and frees the ship when the first socket drops', async () => {
    const first = await TalkClient.open(shore.port, token);
    first.start(CAMERA);
    await first.waitFor('talk.started');
    const second = await TalkClient.open(shore.port, token);
    second.start(CAMERA);
    const refused = await second.waitFor('talk.error');
    expect(refused).toMatchObject({ code: 'occupied', holder: 'Demo Operator' });
    const ended = new Promise((resolve) => agent.talk.once('ended', resolve));
    first.terminate();
    await ended;
    const third = await TalkClient.open(shore.port, token);
    third.start(CAMERA);
    await third.waitFor('talk.started');
    third.stop();
    await third.waitFor('talk.ended');
  }, 30_000);
});
