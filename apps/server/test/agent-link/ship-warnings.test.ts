import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINARY_KIND } from '@ship-cctv/protocol';
import { LogLimiter } from '../../src/core/lib/log-limiter.ts';
import { type TestApp, build } from '../helpers/build.ts';
import { RawAgent } from './raw-agent.ts';

interface Line {
  level: number;
  msg: string;
  shipId?: string;
  suppressed?: number;
}

/** A logger whose lines the test reads. */
function capture(): { stream: Writable; lines: Line[] } {
  const lines: Line[] = [];
  let rest = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Line);
      done();
    },
  });
  return { stream, lines };
}

const WARN = 40;

describe('warnings about what ships send, per ship', () => {
  it('logs the first few of a window, counts the rest, and says how many it left out', async () => {
    const { stream, lines } = capture();
    let now = 0;
    const limiter = new LogLimiter(pino({ level: 'info' }, stream), { perWindow: 3, windowMs: 200, now: () => now });
    for (let i = 0; i < 50; i++) limiter.warn('shipId', 'S1', { i }, 'bad message');
    limiter.warn('shipId', 'S2', {}, 'bad message');
    expect(lines.filter((l) => l.shipId === 'S1').map((l) => l.msg)).toEqual(['bad message', 'bad message', 'bad message']);
    expect(lines.filter((l) => l.shipId === 'S2')).toHaveLength(1);
    // At the window's end, one line with the count left out.
    await expect.poll(() => lines.find((l) => l.suppressed !== undefined), { timeout: 5_000 }).toMatchObject({ shipId: 'S1', suppressed: 47, level: WARN });
    // A new window logs again.
    now = 1_000;
    limiter.warn('shipId', 'S1', {}, 'bad message');
    expect(lines.filter((l) => l.shipId === 'S1' && l.msg === 'bad message')).toHaveLength(4);
    limiter.close();
  });

  describe('on the agent link', () => {
    let t: TestApp;
    let port: number;
    const log = capture();
    beforeAll(async () => {
      t = await build({ logger: { level: 'info', stream: log.stream } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      port = address.port;
    });
    afterAll(async () => t?.close());

    it("one ship's hundreds of forged messages cost the log ten lines; another ship's warning still shows", async () => {
      const flooder = await RawAgent.connect(port, 'S1001', await t.app.agentKeys.issue('S1001'), { hello: {}, capabilities: ['live'] });
      const other = await RawAgent.connect(port, 'S1002', await t.app.agentKeys.issue('S1002'), { hello: {}, capabilities: ['live'] });
      try {
        let dropped = 0;
        const onDropped = () => dropped++;
        t.app.agents.events.on('dropped', onDropped);
        // Bytes for streams never opened, and messages that are no agent message.
        for (let i = 0; i < 300; i++) flooder.sendFrame(BINARY_KIND.live, 10_000 + i, new Uint8Array([1, 2, 3]));
        for (let i = 0; i < 100; i++) flooder.sendRaw({ type: 'no.such.message', i });
        await expect.poll(() => dropped, { timeout: 20_000 }).toBe(300);
        await flooder.until(() => flooder.of('error').length >= 100, 'the refusals');
        other.sendRaw({ type: 'no.such.message' });
        await other.until(() => other.of('error').length >= 1, 'the refusal');
        t.app.agents.events.off('dropped', onDropped);

        const warnings = (shipId: string) => log.lines.filter((l) => l.level === WARN && l.shipId === shipId);
        expect(warnings('S1001')).toHaveLength(10);
        expect(warnings('S1002').map((l) => l.msg)).toEqual(['agent message refused']);
        // Both ships stay connected: nothing here closes a link.
        expect(t.app.agents.get('S1001')?.ready).toBe(true);
      } finally {
        await flooder.close();
        await other.close();
      }
    });
  });
});
