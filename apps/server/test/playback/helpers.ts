/**
 * Helpers for the ship-playback tests: a scripted ship agent on the real agent link (it answers
 * span queries and plays a real ffmpeg-made fMP4 clip as kind-2 frames), and a media-socket client
 * as a player uses it (the agent tests' own).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import {
  AGENT_HEADERS,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  BINARY_KIND,
  type AgentMessage,
  PATHS,
  type CameraState,
  type RecordedSpan,
  type ShoreMessage,
  checkShoreMessage,
  encodeStreamFrame,
} from '@ship-cctv/protocol';
import { RelaySplitter } from '../../src/core/media/fmp4.ts';
import { makeClip } from '../media/helpers.ts';

export interface Clip {
  init: Uint8Array;
  fragments: Uint8Array[];
}

/** A real H.264 fMP4 clip (init + one fragment per frame, a keyframe every 10 frames), cut into units. */
export async function loadClip(seconds = 4): Promise<Clip> {
  const dir = await mkdtemp(join(tmpdir(), 'ship-playback-'));
  try {
    const file = await makeClip(dir, { name: 'recording', width: 320, height: 180, profile: 'baseline', seconds, rate: 10, gop: 10 });
    const units = new RelaySplitter().push(new Uint8Array(await readFile(file)));
    const init = units.find((u) => u.kind === 'init');
    if (!init) throw new Error('clip has no init segment');
    return { init: init.data, fragments: units.filter((u) => u.kind === 'fragment').map((u) => u.data) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export type ShorePlaybackStart = Extract<ShoreMessage, { type: 'playback.start' }>;

interface Playing {
  start: ShorePlaybackStart;
  next: number;
  paused: boolean;
  timer: NodeJS.Timeout | undefined;
}

export interface ScriptedAgentOptions {
  /** Spans the ship "holds" per camera. */
  spans?: Record<string, RecordedSpan[]>;
  /** The gaps and causes the ship gives per camera in vod.result (absent: an agent that gives none). */
  gaps?: Record<string, { start: number; end: number; cause: string }[]>;
  /** The cameras' state in the hello. */
  cameras?: CameraState[];
  /** Cameras for which playback.start is answered noRecording. */
  noRecording?: string[];
  /** Answer vod.query with vod.failed. */
  failQueries?: boolean;
  /** Do not answer vod.query at all. */
  silentQueries?: boolean;
  /** Most spans in one answer (the real agent: 10,000, the agent-link schema's bound). */
  maxSpans?: number;
  /** Do not answer playback.start at all. */
  silentPlayback?: boolean;
  /** Milliseconds between fragments sent. */
  fragmentEveryMs?: number;
}

/**
 * A ship agent reduced to the playback protocol: it dials the real agent link with its key, says
 * hello, answers vod.query from `spans`, and plays `clip` for each playback.start (started, init,
 * fragments paced by `fragmentEveryMs`, a position every 10 fragments, ended) honouring pause,
 * resume and stop.
 */
export class ScriptedAgent {
  readonly received: ShoreMessage[] = [];
  readonly playing = new Map<number, Playing>();
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly ws: WebSocket,
    private readonly clip: Clip,
    readonly opts: ScriptedAgentOptions,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      // What shore sends must pass the link's schema, as the real agent checks it.
      const checked = checkShoreMessage(JSON.parse(String(data)));
      if (!checked.ok) throw new Error(`shore sent a message the agent would refuse: ${checked.error}`);
      const msg = checked.message;
      this.received.push(msg);
      this.handle(msg);
      for (const w of this.waiters.splice(0)) w();
    });
    ws.on('close', () => {
      for (const p of this.playing.values()) clearTimeout(p.timer);
      this.playing.clear();
    });
  }

  static async connect(port: number, shipId: string, key: string, clip: Clip, opts: ScriptedAgentOptions = {}): Promise<ScriptedAgent> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.agentLink}`, {
      headers: { [AGENT_HEADERS.shipId]: shipId, [AGENT_HEADERS.authorization]: `Ship ${key}`, [AGENT_HEADERS.protocol]: `${AGENT_LINK_MIN_VERSION}-${AGENT_LINK_VERSION}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const agent = new ScriptedAgent(ws, clip, opts);
    agent.send({
      type: 'hello',
      protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION },
      agentVersion: 'scripted',
      capabilities: ['playback'],
      link: { linkType: 'VSAT', quality: 80, duplex: 'BOTH' },
      cameras: opts.cameras ?? [],
    });
    return agent;
  }

  send(msg: AgentMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  of<T extends ShoreMessage['type']>(type: T): Extract<ShoreMessage, { type: T }>[] {
    return this.received.filter((m): m is Extract<ShoreMessage, { type: T }> => m.type === type);
  }

  async until(pred: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`scripted agent: no ${what} within ${timeoutMs} ms; received ${JSON.stringify(this.received.slice(-6))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }

  private handle(msg: ShoreMessage): void {
    switch (msg.type) {
      case 'vod.query': {
        if (this.opts.silentQueries) return;
        if (this.opts.failQueries) return this.send({ type: 'vod.failed', requestId: msg.requestId, message: 'recorder index unreadable' });
        const spans = (this.opts.spans?.[msg.cameraId] ?? []).filter((s) => s.end > msg.start && s.start < msg.end).slice(0, this.opts.maxSpans ?? 10_000);
        const gaps = this.opts.gaps?.[msg.cameraId]?.filter((g) => g.end > msg.start && g.start < msg.end);
        return this.send({ type: 'vod.result', requestId: msg.requestId, cameraId: msg.cameraId, spans, ...(gaps ? { gaps } : {}) });
      }
      case 'playback.start': {
        if (this.opts.silentPlayback) return;
        if (this.opts.noRecording?.includes(msg.cameraId)) {
          return this.send({ type: 'playback.failed', streamId: msg.streamId, code: 'noRecording', message: 'no recording in the range' });
        }
        const p: Playing = { start: msg, next: 0, paused: false, timer: undefined };
        this.playing.set(msg.streamId, p);
        this.send({ type: 'playback.started', streamId: msg.streamId });
        this.binary(msg.streamId, this.clip.init);
        this.pump(p);
        return;
      }
      case 'playback.pause': {
        const p = this.playing.get(msg.streamId);
        if (!p) return;
        p.paused = true;
        clearTimeout(p.timer);
        return;
      }
      case 'playback.resume': {
        const p = this.playing.get(msg.streamId);
        if (!p || !p.paused) return;
        p.paused = false;
        this.pump(p);
        return;
      }
      case 'playback.stop': {
        const p = this.playing.get(msg.streamId);
        clearTimeout(p?.timer);
        this.playing.delete(msg.streamId);
        return;
      }
      default:
        return;
    }
  }

  /** Sends the next fragment, a position every 10, and ends after the last. */
  private pump(p: Playing): void {
    const { streamId, from, speed } = p.start;
    if (p.paused || this.playing.get(streamId) !== p || this.ws.readyState !== WebSocket.OPEN) return;
    const fragment = this.clip.fragments[p.next];
    if (!fragment) {
      this.playing.delete(streamId);
      this.send({ type: 'playback.ended', streamId });
      return;
    }
    this.binary(streamId, fragment);
    if (p.next % 10 === 0) this.send({ type: 'playback.position', streamId, time: from + p.next * 100 * speed });
    p.next += 1;
    p.timer = setTimeout(() => this.pump(p), this.opts.fragmentEveryMs ?? 20);
  }

  private binary(streamId: number, payload: Uint8Array): void {
    this.ws.send(encodeStreamFrame(BINARY_KIND.playback, streamId, payload), { binary: true });
  }
}

/** The media-socket client (a player's view of the socket), shared with the cross-application tests. */
export { MediaClient } from '../helpers/media-client.ts';

/** The `shipcctv_link_bytes_total` counter of one ship, direction and purpose, from /metrics. */
export function linkBytes(metrics: string, ship: string, direction: 'up' | 'down', purpose: string): number {
  const m = new RegExp(`^shipcctv_link_bytes_total\\{ship="${ship}",direction="${direction}",purpose="${purpose}"\\} (\\d+)$`, 'm').exec(metrics);
  return m ? Number(m[1]) : 0;
}
