import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { type AgentMessage, BINARY_KIND, type LinkReport, PATHS, type ShoreMessage, decodeStreamFrame } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { probeFile, tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { syntheticCameras } from '@ship-cctv/simulator';

/**
 * The agent's side of ship playback over a real agent-link socket: a bare WebSocket server stands
 * in for shore's gateway (whose playback relay is built separately) and speaks the contract.
 */
const CAMERA = 'S1-C01-1';
const report: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
const link = { current: () => report, onChange: () => () => undefined };
const HOUR = 3_600_000;
const tmp = tempDir('ship-playback-link-');

describe('ship playback over the agent link', () => {
  let server: WebSocketServer;
  let socket: WebSocket;
  let agent: ShipAgent;
  const json: AgentMessage[] = [];
  const binary: { kind: number; streamId: number; payload: Uint8Array }[] = [];
  const send = (m: ShoreMessage) => socket.send(JSON.stringify(m));

  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1', path: PATHS.agentLink });
    await new Promise((resolve) => server.once('listening', resolve));
    const connected = new Promise<void>((resolve) =>
      server.on('connection', (ws) => {
        socket = ws;
        ws.on('message', (data, isBinary) => {
          if (isBinary) {
            const frame = decodeStreamFrame(new Uint8Array(data as Buffer));
            if (frame) binary.push({ ...frame, payload: Uint8Array.from(frame.payload) });
          } else json.push(JSON.parse(String(data)) as AgentMessage);
        });
        resolve();
      }),
    );
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    agent = new ShipAgent(
      { shoreUrl: `ws://127.0.0.1:${address.port}`, shipId: 'S1', key: 'k', cameras: [{ cameraId: CAMERA, source: 'synthetic', name: 'Bridge' }] },
      link,
      { cameraKinds: [syntheticCameras()], minBackoffMs: 200, maxBackoffMs: 500, recorder: { dataDir: join(tmp.dir, 'agent') } },
    );
    agent.start();
    await connected;
  });
  afterAll(async () => {
    await agent.stop();
    await new Promise((r) => server.close(r));
    tmp.remove();
  });

  it('answers vod.query with the recorded spans, and vod.failed for a bad question', async () => {
    const now = Date.now();
    send({ type: 'vod.query', requestId: 1, cameraId: CAMERA, start: now - 48 * HOUR, end: now });
    send({ type: 'vod.query', requestId: 2, cameraId: 'S9-C99-9', start: now - HOUR, end: now });
    send({ type: 'vod.query', requestId: 3, cameraId: CAMERA, start: now, end: now - HOUR });
    await expect.poll(() => json.filter((m) => m.type === 'vod.result' || m.type === 'vod.failed').length).toBe(3);
    const result = json.find((m) => m.type === 'vod.result');
    if (result?.type !== 'vod.result') throw new Error('no vod.result');
    expect(result.requestId).toBe(1);
    expect(result.cameraId).toBe(CAMERA);
    // Two days of the demo history: a gap a day, so two or three spans, inside the asked range.
    expect(result.spans.length).toBeGreaterThanOrEqual(2);
    expect(result.spans[0]!.start).toBeGreaterThanOrEqual(now - 48 * HOUR);
    expect(result.spans.at(-1)!.end).toBeLessThanOrEqual(now + 1_000);
    expect(json.filter((m) => m.type === 'vod.failed').map((m) => (m.type === 'vod.failed' ? m.requestId : 0))).toEqual([2, 3]);
  });

  it('plays a range back as binary playback frames with started, positions and ended', async () => {
    const result = json.find((m) => m.type === 'vod.result');
    if (result?.type !== 'vod.result') throw new Error('no vod.result');
    const span = result.spans.find((s) => s.end - s.start > 10 * 60_000)!;
    const start = span.start + 60_000;
    const end = start + 48_000; // 3 s at 16×
    send({ type: 'playback.start', streamId: 70, cameraId: CAMERA, encode: { width: 320, height: 180, frameRate: 10, bitrateKbps: 300, codec: 'h264' }, start, end, from: start, speed: 16 });
    await expect.poll(() => json.some((m) => m.type === 'playback.ended'), { timeout: 15_000 }).toBe(true);
    const mine = json.filter((m) => m.type.startsWith('playback.'));
    expect(mine[0]).toEqual({ type: 'playback.started', streamId: 70 });
    expect(mine.at(-1)).toEqual({ type: 'playback.ended', streamId: 70 });
    const positions = mine.flatMap((m) => (m.type === 'playback.position' ? [m.time] : []));
    expect(positions.length).toBeGreaterThanOrEqual(2);
    expect(positions.every((t) => t >= start && t < end)).toBe(true);
    expect(binary.every((b) => b.kind === BINARY_KIND.playback && b.streamId === 70)).toBe(true);
    const file = join(tmp.dir, 'link.mp4');
    writeFileSync(file, Buffer.concat(binary.map((b) => b.payload)));
    // 16×: 3 keyframes a played second, each 16/3 s of recording apart.
    const probe = await probeFile(file);
    expect(probe.packets).toBe(9);
    expect(probe.keyframes).toHaveLength(9);
  });
});
