import { BINARY_KIND, type ShoreMessage } from '@ship-cctv/protocol';
import { RawAgent } from '../agent-link/raw-agent.ts';
import { NON_SYNC, SYNC, syntheticFragment, syntheticInit } from '../media/helpers.ts';

const TIMESCALE = 90_000;
const FRAME_MS = 100;
const INIT = syntheticInit({ width: 320, height: 180, timescale: TIMESCALE, avc: [0x42, 0xc0, 0x1e], trex: { duration: 9_000, flags: NON_SYNC } });

/**
 * A ship's agent that streams live: on `live.start` it answers `live.started`, sends an init
 * segment and then a 10 fps picture (a keyframe every second) until `live.stop` or its link closes.
 * `sentBytes` counts what crossed its link, WebSocket framing included.
 */
export class StreamingAgent {
  private readonly timers = new Map<number, NodeJS.Timeout>();

  private constructor(readonly link: RawAgent) {}

  static async connect(port: number, shipId: string, key: string): Promise<StreamingAgent> {
    const found: { agent?: StreamingAgent } = {};
    const link = await RawAgent.connect(port, shipId, key, {
      hello: {},
      capabilities: ['live'],
      onMessage: (msg: ShoreMessage) => found.agent?.heard(msg),
    });
    found.agent = new StreamingAgent(link);
    return found.agent;
  }

  get sentBytes(): number {
    return this.link.sentBytes;
  }
  get closed(): { code: number; reason: string } | undefined {
    return this.link.closed;
  }
  /** Live streams running now. */
  get streaming(): number {
    return this.timers.size;
  }

  async close(): Promise<void> {
    this.stopAll();
    await this.link.close();
  }

  private heard(msg: ShoreMessage): void {
    if (msg.type === 'live.stop') {
      clearInterval(this.timers.get(msg.streamId));
      this.timers.delete(msg.streamId);
      return;
    }
    if (msg.type !== 'live.start') return;
    const { streamId } = msg;
    this.link.send({ type: 'live.started', streamId });
    this.link.sendFrame(BINARY_KIND.live, streamId, INIT);
    let n = 0;
    const timer = setInterval(() => {
      if (this.link.closed) return this.stopAll();
      const fragment = syntheticFragment({
        sequence: n + 1,
        decodeTime: n * 9_000,
        trun: { count: 1, durations: [9_000], flags: [n % 10 === 0 ? SYNC : NON_SYNC] },
        mdat: new Uint8Array(2_000).fill(n % 256),
      });
      n += 1;
      this.link.sendFrame(BINARY_KIND.live, streamId, fragment);
    }, FRAME_MS);
    this.timers.set(streamId, timer);
  }

  private stopAll(): void {
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }
}
