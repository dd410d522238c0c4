/**
 * The agent measures the link it has (the agent's uplink/link-meter.ts), here over emulated links
 * of known delay, rate and loss: the round trip its pings see, the goodput shore acknowledges, and
 * the deliveries a lost packet holds back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { type AgentMessage, type LinkReport, type LinkMeasurement, LINK_ACK_INTERVAL_MS, encodeStreamFrame, isAgentMessage } from '@ship-cctv/protocol';
import { LinkMeter, ShipAgent, UplinkScheduler, pingShore } from '@ship-cctv/agent';
import { type LinkLoss, seededRandom } from '../../src/link/index.ts';
import { closeAll, startShaper, testProfile } from './helpers.ts';

afterEach(closeAll);

/**
 * Shore's end of the agent link as far as measuring goes: it welcomes the agent (link protocol 3),
 * acknowledges what arrives (every byte on its socket, at most every LINK_ACK_INTERVAL_MS, as shore
 * does) and keeps the agent's messages.
 */
async function fakeShore() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const messages: AgentMessage[] = [];
  const refused: unknown[] = [];
  const state = { received: 0 };
  wss.on('connection', (ws, req) => {
    let acked = 0;
    const ack = setInterval(() => {
      if (state.received === acked || ws.readyState !== WebSocket.OPEN) return;
      acked = state.received;
      ws.send(JSON.stringify({ type: 'link.ack', bytes: acked }));
    }, LINK_ACK_INTERVAL_MS);
    req.socket.on('data', (chunk: Buffer) => (state.received += chunk.length));
    ws.on('close', () => clearInterval(ack));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const msg: unknown = JSON.parse(String(data));
      if (!isAgentMessage(msg)) return void refused.push(msg);
      messages.push(msg);
      if (msg.type === 'hello') ws.send(JSON.stringify({ type: 'welcome', shipId: 'S1', serverTime: Date.now(), protocol: 3 }));
    });
  });
  const address = wss.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    messages,
    refused,
    state,
    close: () => new Promise<void>((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close(() => resolve());
    }),
  };
}

/**
 * The agent's uplink and meter on one WebSocket through `port`, as ShipAgent wires them, with an
 * upload that never runs dry (in the live class, whose window keeps the link full).
 */
async function fullUplink(port: number) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const meter = new LinkMeter(performance.now());
  const uplink = new UplinkScheduler({ write: (d) => ws.send(d, { binary: typeof d !== 'string' }), buffered: () => ws.bufferedAmount }, { observer: meter });
  const welcomed = new Promise<void>((resolve) => {
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { type: string; bytes?: number };
      if (msg.type === 'welcome') {
        uplink.useWindow();
        resolve();
      }
      if (msg.type === 'link.ack' && msg.bytes !== undefined) uplink.acknowledged(msg.bytes);
    });
  });
  const stopPings = pingShore(ws, meter, uplink, 250);
  uplink.send('control', JSON.stringify({ type: 'hello', protocol: { min: 2, max: 3 }, agentVersion: 'test', capabilities: [], link: { linkType: 'VSAT', quality: 80, duplex: 'BOTH' }, cameras: [] }));
  // Streams start once shore has welcomed the agent (it asks for them): from then on the window holds.
  await welcomed;
  const frame = encodeStreamFrame(1, 1, new Uint8Array(8 * 1024).fill(7));
  const feed = setInterval(() => {
    while (uplink.bytesAhead('live') < 256 * 1024) uplink.send('live', frame);
  }, 20);
  return {
    meter,
    close() {
      clearInterval(feed);
      stopPings();
      uplink.close();
      ws.terminate();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * When this process stood still: the shaper, shore and agent all run in it, so a pause on a loaded
 * machine holds deliveries back and releases them at once, as a lost packet does, and the meter
 * rightly sees a stall. `count(from, to)`: pauses of 250 ms or more that ended in the span.
 */
function processPauses() {
  const ended: number[] = [];
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last >= 250) ended.push(now);
    last = now;
  }, 20);
  return {
    count: (from: number, to: number) => ended.filter((at) => at > from && at <= to).length,
    stop: () => clearInterval(tick),
  };
}

describe('the agent measures the link it has', () => {
  it('reports the round trip of an emulated link of known delay in its link reports, which shore takes as they are', async () => {
    const shore = await fakeShore();
    const shaper = await startShaper({ targetPort: shore.port, profile: testProfile({ oneWayDelayMs: 150, upKbps: 2_000, downKbps: 2_000 }), loss: false });
    const report: LinkReport = { linkType: 'FBB', quality: 70, duplex: 'BOTH' };
    const agent = new ShipAgent({ shoreUrl: `ws://127.0.0.1:${shaper.port}`, shipId: 'S1', key: 'k', cameras: [] }, { current: () => report, onChange: () => () => undefined }, { linkMeasure: { pingEveryMs: 250, reportEveryMs: 2_000 } });
    agent.start();
    try {
      const measured = () => shore.messages.flatMap((m) => (m.type === 'link' && m.measured ? [m] : []));
      await expect.poll(() => measured().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
      const [first, second] = measured();
      // The link's kind is the ship's as before; the figures ride beside it.
      expect(first).toMatchObject({ type: 'link', linkType: 'FBB', quality: 70, duplex: 'BOTH' });
      const m = second?.measured as LinkMeasurement;
      // Two one-way delays of 150 ms: never less, and a little more for the loaded machine's timers.
      expect(m.rttMs).toBeGreaterThanOrEqual(300);
      expect(m.rttMs).toBeLessThan(400);
      expect(m.periodMs).toBeGreaterThanOrEqual(1_900);
      expect(m.periodMs).toBeLessThan(2_500);
      // Shore acknowledged the pings and reports: a little goodput, and the loss seen is counted.
      expect(m.goodputKbps).toBeGreaterThan(0);
      expect(typeof m.stalls).toBe('number');
      expect(shore.refused).toEqual([]);
    } finally {
      await agent.stop();
      await shore.close();
    }
  }, 30_000);

  it('sees a full uplink’s goodput at the emulated link’s rate, as much as shore received, without stalls', async () => {
    const shore = await fakeShore();
    // A geostationary round trip (a second, so a stall is told from a busy machine's late timers) at FleetBroadband's rate.
    const shaper = await startShaper({ targetPort: shore.port, profile: testProfile({ oneWayDelayMs: 500, upKbps: 400, downKbps: 2_000 }), loss: false });
    const up = await fullUplink(shaper.port);
    const pauses = processPauses();
    try {
      // Past the start (the window learns the link), then one period of 6 s.
      await sleep(4_000);
      up.meter.report(performance.now());
      const before = { at: performance.now(), received: shore.state.received };
      await sleep(6_000);
      const m = up.meter.report(performance.now());
      const truthKbps = ((shore.state.received - before.received) * 8) / (performance.now() - before.at);
      // Pings wait behind the full uplink's window: never less than the link's own round trip.
      expect(m.rttMs).toBeGreaterThanOrEqual(1_000);
      // What shore acknowledged lags what it received by up to an acknowledgement interval and a one-way delay.
      expect(m.goodputKbps).toBeGreaterThan(truthKbps * 0.9);
      expect(m.goodputKbps).toBeLessThan(truthKbps * 1.1);
      // The link was full: within 10 % of its 400 kbit/s, never above it.
      expect(m.goodputKbps).toBeGreaterThan(360);
      expect(m.goodputKbps).toBeLessThanOrEqual(404);
      // Nothing was lost: no stall but one per pause of this process (none on a quiet machine).
      expect(m.stalls).toBeLessThanOrEqual(pauses.count(before.at - 700, performance.now()));
    } finally {
      pauses.stop();
      up.close();
      await shore.close();
    }
  }, 40_000);

  it('sees each lost packet of a lossy emulated link as a stall (a round trip of silence, then a release)', async () => {
    const shore = await fakeShore();
    const shaper = await startShaper({
      targetPort: shore.port,
      profile: testProfile({ oneWayDelayMs: 500, upKbps: 400, downKbps: 2_000, upLossPercent: 2, downLossPercent: 0 }),
      random: seededRandom(7),
    });
    const losses: (LinkLoss & { at: number })[] = [];
    shaper.on('loss', (l) => {
      if (l.direction === 'up') losses.push({ ...l, at: performance.now() });
    });
    const up = await fullUplink(shaper.port);
    const pauses = processPauses();
    try {
      await sleep(3_000);
      const periodStart = performance.now();
      up.meter.report(periodStart);
      await sleep(12_000);
      const m = up.meter.report(performance.now());
      const reportAt = performance.now();
      // The agent sees a loss when shore's acknowledgement of its late delivery comes back: the
      // retransmission's delay, the way up and the way down (500 ms each) and up to one
      // acknowledgement interval after the loss. Losses seen wholly within the period are the
      // meter's to count; those whose release may have been seen in it are all it may count.
      const seenFrom = (l: LinkLoss & { at: number }) => l.at + l.stallMs + 1_000;
      const seenBy = (l: LinkLoss & { at: number }) => seenFrom(l) + LINK_ACK_INTERVAL_MS;
      const lost = losses.filter((l) => l.at >= periodStart && seenBy(l) <= reportAt).length;
      const mayShow = losses.filter((l) => seenBy(l) >= periodStart && seenFrom(l) <= reportAt).length;
      expect(lost).toBeGreaterThanOrEqual(3);
      // Each stall is at least one loss, and losses a round trip apart or less show as one; a pause
      // of this process may show as one more.
      expect(m.stalls).toBeGreaterThanOrEqual(Math.ceil(lost / 2));
      expect(m.stalls).toBeLessThanOrEqual(mayShow + pauses.count(periodStart - 700, reportAt));
      expect(m.lossPercent).toBeGreaterThan(0);
    } finally {
      pauses.stop();
      up.close();
      await shore.close();
    }
  }, 60_000);
});
