/// <reference lib="dom" />
/**
 * The WebRTC peer's viewer in the live-video benchmark's page: Janus's HTTP API (janus-peer.ts)
 * spoken directly — a session, the streaming plugin attached, an RTSP mountpoint of the camera the
 * ship reads, `watch` (Janus offers), the page's answer and `start` — and the stream shown on a
 * <video> of its own, where the page reads the capture code of every presented frame as it does
 * for the product's players. Events come by long poll (which also keeps the session alive).
 */

export interface JanusWatch {
  /** The HTTP API's base, e.g. http://127.0.0.1:18610/janus */
  apiUrl: string;
  /** The camera, as the ship's agent reads it. */
  rtspUrl: string;
  /**
   * Through the emulated link: the page asks the benchmark (window.benchUdpRelay, udp-link.ts)
   * for a relay in front of Janus's candidate and offers the browser that instead.
   */
  relay?: boolean;
}

declare global {
  interface Window {
    /** A relay port on `ip` in front of Janus's candidate ip:port, on the link of the camera `rtspUrl`. */
    benchUdpRelay?: (rtspUrl: string, ip: string, port: number) => Promise<number>;
  }
}

/**
 * The offer with its one IPv4 UDP host candidate moved behind the benchmark's relay (the other
 * candidates dropped, so nothing goes round the link).
 */
async function behindRelay(sdp: string, relay: (ip: string, port: number) => Promise<number>): Promise<string> {
  const lines = sdp.split('\r\n');
  const out: string[] = [];
  let done = false;
  for (const line of lines) {
    const m = /^a=candidate:(\S+) (\d) (udp|UDP) (\d+) (\d+\.\d+\.\d+\.\d+) (\d+) typ host(.*)$/.exec(line);
    if (line.startsWith('a=candidate:') && (!m || done)) continue;
    if (m) {
      const port = await relay(m[5] ?? '', Number(m[6]));
      out.push(`a=candidate:${m[1]} ${m[2]} ${m[3]} ${m[4]} ${m[5]} ${port} typ host${m[7] ?? ''}`);
      done = true;
      continue;
    }
    out.push(line);
  }
  if (!done) throw new Error('Janus offered no IPv4 UDP host candidate to relay');
  return out.join('\r\n');
}

export type JanusViewerState = 'connecting' | 'playing' | 'stopped' | 'error';

interface JanusReply {
  janus: string;
  transaction?: string;
  data?: { id: number };
  error?: { code: number; reason: string };
  sender?: number;
  plugindata?: { data: Record<string, unknown> };
  jsep?: RTCSessionDescriptionInit;
}

const transaction = () => Math.random().toString(36).slice(2, 12);

export class JanusViewer {
  state: JanusViewerState = 'connecting';
  /** play() to the first frame on screen, ms. */
  firstFrameMs: number | undefined;
  private session: number | undefined;
  private handle: number | undefined;
  private mountpoint: number | undefined;
  private pc: RTCPeerConnection | undefined;
  private alive = true;
  private readonly startedAt = performance.now();
  private readonly waiters: ((ev: JanusReply) => boolean)[] = [];

  constructor(
    private readonly video: HTMLVideoElement,
    private readonly watch: JanusWatch,
    private readonly events: { onState: (state: JanusViewerState) => void; onError: (message: string) => void },
  ) {
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    void this.run().catch((err: unknown) => this.fail(err));
  }

  destroy(): void {
    this.alive = false;
    this.pc?.close();
    this.set('stopped');
    const s = this.session;
    const h = this.handle;
    if (s !== undefined && h !== undefined && this.mountpoint !== undefined) {
      void this.post(`/${s}/${h}`, { janus: 'message', body: { request: 'destroy', id: this.mountpoint } }).catch(() => undefined);
    }
    if (s !== undefined) void this.post(`/${s}`, { janus: 'destroy' }).catch(() => undefined);
  }

  private set(state: JanusViewerState): void {
    if (this.state === state) return;
    this.state = state;
    this.events.onState(state);
  }

  private fail(err: unknown): void {
    if (!this.alive) return;
    this.events.onError(err instanceof Error ? err.message : String(err));
    this.set('error');
  }

  private async post(path: string, body: Record<string, unknown>): Promise<JanusReply> {
    const res = await fetch(`${this.watch.apiUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, transaction: transaction() }) });
    const reply = (await res.json()) as JanusReply;
    if (reply.janus === 'error') throw new Error(`Janus: ${reply.error?.reason ?? 'error'} (${reply.error?.code ?? '?'})`);
    return reply;
  }

  /** A plugin request answered by an event (asynchronous in Janus): resolves with that event. */
  private async request(body: Record<string, unknown>, jsep?: RTCSessionDescriptionInit): Promise<JanusReply> {
    const ev = this.next((e) => e.janus === 'event' && e.sender === this.handle);
    let reply: JanusReply;
    try {
      reply = await this.post(`/${this.session}/${this.handle}`, { janus: 'message', body, ...(jsep ? { jsep } : {}) });
    } catch (err) {
      ev.cancel();
      throw err;
    }
    // Synchronous requests (create) answer at once; the others with an event.
    if (reply.janus === 'success') {
      ev.cancel();
      return reply;
    }
    const got = await ev.promise;
    const error = got.plugindata?.data.error;
    if (typeof error === 'string') throw new Error(`Janus streaming: ${error}`);
    return got;
  }

  private next(match: (ev: JanusReply) => boolean): { promise: Promise<JanusReply>; cancel: () => void } {
    let waiter: (ev: JanusReply) => boolean = () => false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const promise = new Promise<JanusReply>((resolve, reject) => {
      timer = setTimeout(() => {
        this.drop(waiter);
        reject(new Error('Janus: no answer within 15 s'));
      }, 15_000);
      waiter = (ev) => {
        if (!match(ev)) return false;
        clearTimeout(timer);
        resolve(ev);
        return true;
      };
      this.waiters.push(waiter);
    });
    return {
      promise,
      cancel: () => {
        clearTimeout(timer);
        this.drop(waiter);
      },
    };
  }

  private drop(waiter: (ev: JanusReply) => boolean): void {
    const i = this.waiters.indexOf(waiter);
    if (i >= 0) this.waiters.splice(i, 1);
  }

  private async poll(): Promise<void> {
    while (this.alive && this.session !== undefined) {
      const res = await fetch(`${this.watch.apiUrl}/${this.session}?maxev=10&rid=${Date.now()}`).catch(() => undefined);
      if (!res) {
        await new Promise((r) => setTimeout(r, 200));
        continue;
      }
      const body = (await res.json()) as JanusReply | JanusReply[];
      for (const ev of Array.isArray(body) ? body : [body]) {
        const i = this.waiters.findIndex((w) => w(ev));
        if (i >= 0) this.waiters.splice(i, 1);
        if (ev.janus === 'hangup' || ev.janus === 'detached') this.fail(new Error(`Janus: ${ev.janus}`));
      }
    }
  }

  private async run(): Promise<void> {
    this.session = (await this.post('', { janus: 'create' })).data?.id;
    void this.poll().catch((err: unknown) => this.fail(err));
    this.handle = (await this.post(`/${this.session}`, { janus: 'attach', plugin: 'janus.plugin.streaming' })).data?.id;
    const id = 1 + Math.floor(Math.random() * 1e9);
    const created = await this.request({ request: 'create', type: 'rtsp', id, name: `bench ${id}`, url: this.watch.rtspUrl, audio: false, video: true, rtsp_reconnect_delay: 2 });
    this.mountpoint = (created.plugindata?.data.stream as { id?: number } | undefined)?.id ?? id;
    // Janus offers once the mountpoint has media; the RTSP client needs a moment to set up.
    let offer: JanusReply | undefined;
    for (let tries = 0; !offer?.jsep; tries++) {
      try {
        offer = await this.request({ request: 'watch', id: this.mountpoint });
      } catch (err) {
        if (tries >= 20) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const pc = new RTCPeerConnection({ iceServers: [] });
    this.pc = pc;
    pc.ontrack = (ev) => {
      const stream = ev.streams[0] ?? new MediaStream([ev.track]);
      if (this.video.srcObject !== stream) this.video.srcObject = stream;
      void this.video.play().catch(() => undefined);
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') this.fail(new Error('WebRTC connection failed'));
    };
    this.video.requestVideoFrameCallback(() => {
      this.firstFrameMs = performance.now() - this.startedAt;
      this.set('playing');
    });
    const relay = window.benchUdpRelay;
    if (this.watch.relay && !relay) throw new Error('the link relay is missing (window.benchUdpRelay)');
    const jsep: RTCSessionDescriptionInit =
      this.watch.relay && relay && offer.jsep.sdp ? { type: offer.jsep.type, sdp: await behindRelay(offer.jsep.sdp, (ip, port) => relay(this.watch.rtspUrl, ip, port)) } : offer.jsep;
    await pc.setRemoteDescription(jsep);
    await pc.setLocalDescription(await pc.createAnswer());
    // The answer goes with its candidates (no trickle): wait for gathering, briefly.
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      const timer = setTimeout(resolve, 2_000);
      pc.addEventListener('icegatheringstatechange', () => {
        if (pc.iceGatheringState === 'complete') {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const answer = pc.localDescription;
    if (!answer) throw new Error('no local description');
    // Through the link: Janus must not learn the browser's own addresses (it would send straight
    // to them, round the relay); it learns the relay's from the checks that come through it.
    const sdp = this.watch.relay ? answer.sdp.split('\r\n').filter((l) => !l.startsWith('a=candidate:')).join('\r\n') : answer.sdp;
    await this.request({ request: 'start' }, { type: answer.type, sdp });
  }
}
