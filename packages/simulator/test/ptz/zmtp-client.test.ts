import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { filter } from '../../../../apps/agent/src/media/filtergraph.ts';
import { freePort } from '../../src/ptz/synthetic-ptz.ts';
import { ZmtpReqClient, encodeFrame } from '../../src/ptz/zmtp-client.ts';

const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((c) => c.kill('SIGKILL')));

/** ffmpeg with the zmq filter on `port` before a crop, writing grey frames to stdout until killed. */
function ffmpegWithZmq(port: number): { child: ChildProcess; frames: Buffer[] } {
  const graph = `testsrc2=s=320x180:r=20,${filter('zmq', { b: `tcp://127.0.0.1:${port}` })},${filter('crop@ptz', { w: 160, h: 90, x: 0, y: 0 })},null,scale=160:90`;
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-re', '-f', 'lavfi', '-i', graph, '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const frames: Buffer[] = [];
  let pending = Buffer.alloc(0);
  child.stdout?.on('data', (d: Buffer) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 160 * 90) {
      frames.push(pending.subarray(0, 160 * 90));
      pending = pending.subarray(160 * 90);
    }
  });
  return { child, frames };
}

async function connected(port: number): Promise<ZmtpReqClient> {
  for (let i = 0; i < 100; i++) {
    const c = ZmtpReqClient.connect('127.0.0.1', port);
    try {
      await c.ready;
      return c;
    } catch {
      c.close();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('ffmpeg never bound its zmq socket');
}

describe('ZMTP 3.0 REQ client against ffmpeg’s zmq filter', () => {
  it('sends crop commands that a running ffmpeg takes ("0 Success") and that change its picture, in order', async () => {
    const port = await freePort();
    const ff = ffmpegWithZmq(port);
    const client = await connected(port);
    await expect.poll(() => ff.frames.length, { timeout: 10_000 }).toBeGreaterThan(2);
    const before = ff.frames.at(-1);
    // Several requests at once: REQ is lock-step, the client queues them.
    const replies = await Promise.all([client.request('crop@ptz x 160'), client.request('crop@ptz y 90'), client.request('crop@ptz w 80'), client.request('crop@ptz h 45')]);
    expect(replies).toEqual(['0 Success', '0 Success', '0 Success', '0 Success']);
    const seen = ff.frames.length;
    await expect.poll(() => ff.frames.length, { timeout: 5_000 }).toBeGreaterThan(seen + 3);
    const after = ff.frames.at(-1);
    // Still 160×90 frames (scaled back after the narrower crop), and a different part of the pattern.
    let diff = 0;
    for (let i = 0; i < 160 * 90; i++) diff += Math.abs((before?.[i] ?? 0) - (after?.[i] ?? 0));
    expect(diff / (160 * 90)).toBeGreaterThan(10);
    // A command crop does not know is answered with ffmpeg's error, and the socket goes on.
    expect(await client.request('crop@ptz nosuch 1')).toMatch(/^-?\d+ Function not implemented/);
    expect(await client.request('crop@ptz x 0')).toBe('0 Success');
    client.close();
    await expect(client.request('crop@ptz x 1')).rejects.toThrow(/closed/);
  });

  it('takes a long body (8-byte size) and refuses a peer that does not speak ZMTP', async () => {
    expect([...encodeFrame(Buffer.alloc(300), 0).subarray(0, 9)]).toEqual([0x02, 0, 0, 0, 0, 0, 0, 0x01, 0x2c]);
    const server = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'.padEnd(80, ' ')));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    const client = ZmtpReqClient.connect('127.0.0.1', typeof address === 'object' && address ? address.port : 0);
    await expect(client.ready).rejects.toThrow(/does not speak ZMTP/);
    server.close();
  });
});
