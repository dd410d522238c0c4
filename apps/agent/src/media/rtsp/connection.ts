import { type Socket, connect } from 'node:net';
import { Authenticator, parseChallenges } from './auth.ts';

/**
 * One RTSP 1.0 connection (RFC 2326) over TCP: requests and their responses matched by CSeq,
 * RTP and RTCP interleaved on the same connection (`$`, channel, length: RFC 2326 10.12), Basic or
 * Digest authentication answered once per challenge. A request the camera sends us (some send
 * GET_PARAMETER or OPTIONS as their own keep-alive) is answered so the camera keeps the session.
 */

export interface RtspResponse {
  status: number;
  reason: string;
  /** Header names in lower case; a header given several times keeps every value. */
  headers: Map<string, string[]>;
  body: Buffer;
}

export const header = (r: RtspResponse, name: string): string | undefined => r.headers.get(name.toLowerCase())?.[0];

export interface RtspConnectionOptions {
  /** Connecting and each response may take this long. */
  timeoutMs: number;
  userAgent?: string;
  onInterleaved(channel: number, data: Buffer): void;
  /** Once, when the connection ends for any reason but close(). */
  onClose(reason: string): void;
}

/** A response header block bigger than this is taken as a broken stream. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BODY_BYTES = 1024 * 1024;

export class RtspConnection {
  private readonly socket: Socket;
  private buf: Buffer = Buffer.alloc(0);
  private cseq = 0;
  private readonly pending = new Map<number, { resolve: (r: RtspResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private closed = false;
  /** The session id once SETUP gave one: sent with every later request. */
  session: string | undefined;
  readonly auth: Authenticator | undefined;

  private constructor(
    socket: Socket,
    private readonly opts: RtspConnectionOptions,
    credentials: { username: string; password: string } | undefined,
  ) {
    this.socket = socket;
    this.auth = credentials ? new Authenticator(credentials) : undefined;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      if (this.closed) return;
      try {
        this.receive(chunk);
      } catch (err) {
        this.fail(`camera stream unreadable: ${(err as Error).message}`);
      }
    });
    socket.on('error', (err) => this.fail(`connection to the camera failed: ${err.message}`));
    socket.on('close', () => this.fail('the camera closed the connection'));
  }

  /** Connects to the URL's host and port (554 by default). */
  static open(url: URL, opts: RtspConnectionOptions): Promise<RtspConnection> {
    const port = url.port ? Number(url.port) : 554;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const credentials = url.username ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined;
    return new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection to ${host}:${port} within ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`cannot connect to ${host}:${port}: ${err.message}`));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new RtspConnection(socket, opts, credentials));
      });
    });
  }

  /**
   * Sends a request and waits for its response. A 401 is answered with credentials from the URL
   * once per new challenge; a 401 that stays (wrong password) is returned as it is.
   */
  async request(method: string, url: string, headers: Record<string, string> = {}): Promise<RtspResponse> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(method, url, headers);
      if (res.status !== 401 || !this.auth || attempt >= 2) return res;
      if (!this.auth.accept(parseChallenges(res.headers.get('www-authenticate') ?? []))) return res;
    }
  }

  /** Sends a request without waiting for the answer (TEARDOWN on the way out). */
  sendOnly(method: string, url: string): void {
    if (this.closed) return;
    this.socket.write(this.format(method, url, {}));
  }

  /** Writes an interleaved packet (RTCP receiver reports). */
  writeInterleaved(channel: number, data: Buffer): void {
    if (this.closed) return;
    const head = Buffer.from([0x24, channel, 0, 0]);
    head.writeUInt16BE(data.length, 2);
    this.socket.write(Buffer.concat([head, data]));
  }

  /** Ends the connection; pending requests fail, onClose is not called. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.rejectAll(new Error('connection closed'));
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }

  private format(method: string, url: string, headers: Record<string, string>): string {
    this.cseq += 1;
    const lines = [`${method} ${url} RTSP/1.0`, `CSeq: ${this.cseq}`, `User-Agent: ${this.opts.userAgent ?? 'ShipCCTV'}`];
    const authorization = this.auth?.header(method, url);
    if (authorization) lines.push(`Authorization: ${authorization}`);
    if (this.session) lines.push(`Session: ${this.session}`);
    for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  private send(method: string, url: string, headers: Record<string, string>): Promise<RtspResponse> {
    if (this.closed) return Promise.reject(new Error('connection closed'));
    const text = this.format(method, url, headers);
    const cseq = this.cseq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(cseq);
        reject(new Error(`no answer to ${method} within ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      this.pending.set(cseq, { resolve, reject, timer });
      this.socket.write(text);
    });
  }

  private receive(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    let at = 0;
    const b = this.buf;
    while (at < b.length && !this.closed) {
      if (b[at] === 0x24) {
        if (at + 4 > b.length) break;
        const len = b.readUInt16BE(at + 2);
        if (at + 4 + len > b.length) break;
        this.opts.onInterleaved(b[at + 1] as number, b.subarray(at + 4, at + 4 + len));
        at += 4 + len;
        continue;
      }
      if ((b[at] as number) < 0x41 || (b[at] as number) > 0x5a) {
        // Neither an interleaved packet nor a message (RTSP/…, or a method): skip to the next '$'.
        const next = b.indexOf(0x24, at);
        at = next < 0 ? b.length : next;
        continue;
      }
      const end = b.indexOf('\r\n\r\n', at, 'latin1');
      if (end < 0) {
        if (b.length - at > MAX_HEADER_BYTES) throw new Error('an RTSP message header does not end');
        break;
      }
      const head = b.toString('latin1', at, end).split('\r\n');
      const headers = new Map<string, string[]>();
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
      const length = Number(headers.get('content-length')?.[0] ?? 0);
      if (!Number.isInteger(length) || length < 0 || length > MAX_BODY_BYTES) throw new Error(`RTSP Content-Length ${headers.get('content-length')?.[0]} is invalid`);
      if (end + 4 + length > b.length) break;
      const body = Buffer.from(b.subarray(end + 4, end + 4 + length));
      at = end + 4 + length;
      const first = head[0] ?? '';
      const status = /^RTSP\/1\.\d\s+(\d{3})\s*(.*)$/.exec(first);
      const cseq = Number(headers.get('cseq')?.[0]);
      if (status) {
        const waiter = this.pending.get(cseq);
        if (!waiter) continue; // a late answer to a request that timed out
        this.pending.delete(cseq);
        clearTimeout(waiter.timer);
        waiter.resolve({ status: Number(status[1]), reason: status[2] ?? '', headers, body });
      } else if (/^[A-Z_]+ \S+ RTSP\/1\.\d$/.test(first)) {
        // The camera asks us something: OPTIONS and GET_PARAMETER are its keep-alives.
        const ok = /^(OPTIONS|GET_PARAMETER) /.test(first);
        this.socket.write(`RTSP/1.0 ${ok ? '200 OK' : '501 Not Implemented'}\r\nCSeq: ${Number.isFinite(cseq) ? cseq : 0}\r\n\r\n`);
      } else {
        throw new Error(`unexpected RTSP message: ${first.slice(0, 80)}`);
      }
    }
    this.buf = at >= b.length ? Buffer.alloc(0) : b.subarray(at);
  }

  private rejectAll(err: Error): void {
    for (const [cseq, w] of this.pending) {
      clearTimeout(w.timer);
      w.reject(err);
      this.pending.delete(cseq);
    }
  }

  private fail(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.rejectAll(new Error(reason));
    this.socket.destroy();
    this.opts.onClose(reason);
  }
}
