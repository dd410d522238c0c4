import { type Socket, connect } from 'node:net';

/**
 * A ZeroMQ REQ socket speaking ZMTP 3.0 over TCP (rfc.zeromq.org/spec/23), enough to talk to
 * ffmpeg's `zmq` filter (a REP socket): the 64-byte greeting with the NULL mechanism, a READY
 * command naming the socket type, then each request as an empty delimiter frame and a body frame,
 * answered the same way ("0 Success" when the filter took the command). Requests are sent one at
 * a time, in order (REQ is lock-step); a request sent before the handshake waits for it.
 */
const GREETING_BYTES = 64;
const FLAG_MORE = 0x01;
const FLAG_LONG = 0x02;
const FLAG_COMMAND = 0x04;

function greeting(): Buffer {
  const g = Buffer.alloc(GREETING_BYTES);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3; // version 3.0
  g[11] = 0;
  g.write('NULL', 12, 'ascii');
  g[32] = 0; // as-server: no
  return g;
}

/** One frame: flags, size (1 byte, or 8 with FLAG_LONG), body. */
export function encodeFrame(body: Uint8Array, flags: number): Buffer {
  if (body.length <= 255) return Buffer.concat([Buffer.from([flags, body.length]), body]);
  const head = Buffer.alloc(9);
  head[0] = flags | FLAG_LONG;
  head.writeBigUInt64BE(BigInt(body.length), 1);
  return Buffer.concat([head, body]);
}

/** The READY command with its Socket-Type property. */
function readyCommand(socketType: string): Buffer {
  const name = Buffer.from('READY', 'ascii');
  const key = Buffer.from('Socket-Type', 'ascii');
  const value = Buffer.from(socketType, 'ascii');
  const valueSize = Buffer.alloc(4);
  valueSize.writeUInt32BE(value.length);
  const body = Buffer.concat([Buffer.from([name.length]), name, Buffer.from([key.length]), key, valueSize, value]);
  return encodeFrame(body, FLAG_COMMAND);
}

interface Frame {
  flags: number;
  body: Buffer;
}

/** Reads whole frames off a byte stream. */
class FrameReader {
  private buf = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buf = Buffer.concat([this.buf, chunk]);
    const out: Frame[] = [];
    for (;;) {
      if (this.buf.length < 2) break;
      const flags = this.buf[0] ?? 0;
      const long = (flags & FLAG_LONG) !== 0;
      const headBytes = long ? 9 : 2;
      if (this.buf.length < headBytes) break;
      const size = long ? Number(this.buf.readBigUInt64BE(1)) : (this.buf[1] ?? 0);
      if (this.buf.length < headBytes + size) break;
      out.push({ flags, body: this.buf.subarray(headBytes, headBytes + size) });
      this.buf = this.buf.subarray(headBytes + size);
    }
    return out;
  }
}

export class ZmtpError extends Error {}

interface Pending {
  body: Buffer;
  resolve: (reply: string) => void;
  reject: (err: Error) => void;
}

export class ZmtpReqClient {
  private readonly socket: Socket;
  private state: 'greeting' | 'handshake' | 'ready' | 'closed' = 'greeting';
  private received = Buffer.alloc(0);
  private readonly reader = new FrameReader();
  private readonly queue: Pending[] = [];
  private inFlight: Pending | undefined;
  private replyParts: Buffer[] = [];
  private failure: Error | undefined;
  /** Resolves once the peer's greeting and READY arrived (rejects if the connection fails first). */
  readonly ready: Promise<void>;

  private constructor(host: string, port: number) {
    let onReady!: () => void;
    let onFail!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      onReady = resolve;
      onFail = reject;
    });
    this.ready.catch(() => undefined);
    this.socket = connect({ host, port });
    this.socket.setNoDelay(true);
    this.socket.on('connect', () => this.socket.write(greeting()));
    this.socket.on('data', (chunk: Buffer) => {
      try {
        this.receive(chunk, onReady);
      } catch (err) {
        this.fail(err as Error, onFail);
      }
    });
    this.socket.on('error', (err) => this.fail(err, onFail));
    this.socket.on('close', () => this.fail(new ZmtpError('connection closed'), onFail));
  }

  /** Connects to a REP socket at host:port (the handshake runs in the background; see `ready`). */
  static connect(host: string, port: number): ZmtpReqClient {
    return new ZmtpReqClient(host, port);
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** Sends one request and resolves with the reply's body (text). */
  request(text: string): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ body: Buffer.from(text, 'utf8'), resolve, reject });
      this.pump();
    });
  }

  close(): void {
    this.fail(new ZmtpError('closed'), () => undefined);
  }

  private receive(chunk: Buffer, onReady: () => void): void {
    if (this.state === 'greeting') {
      this.received = Buffer.concat([this.received, chunk]);
      if (this.received.length < GREETING_BYTES) return;
      const peer = this.received.subarray(0, GREETING_BYTES);
      if (peer[0] !== 0xff || peer[9] !== 0x7f) throw new ZmtpError('the peer does not speak ZMTP');
      if ((peer[10] ?? 0) < 3) throw new ZmtpError(`the peer speaks ZMTP ${peer[10]}.x, not 3`);
      const mechanism = peer.subarray(12, 32).toString('ascii').replace(/\0+$/, '');
      if (mechanism !== 'NULL') throw new ZmtpError(`the peer wants the ${mechanism} mechanism`);
      this.state = 'handshake';
      this.socket.write(readyCommand('REQ'));
      chunk = this.received.subarray(GREETING_BYTES);
      this.received = Buffer.alloc(0);
    }
    for (const frame of this.reader.push(chunk)) {
      if (frame.flags & FLAG_COMMAND) {
        const nameLength = frame.body[0] ?? 0;
        const name = frame.body.subarray(1, 1 + nameLength).toString('ascii');
        if (name === 'ERROR') throw new ZmtpError(`the peer refused: ${frame.body.subarray(2 + nameLength).toString('utf8')}`);
        if (name === 'READY' && this.state === 'handshake') {
          this.state = 'ready';
          onReady();
          this.pump();
        }
        continue;
      }
      this.message(frame);
    }
  }

  /** A message frame of the reply: the empty delimiter, then the body (possibly in parts). */
  private message(frame: Frame): void {
    if (!this.inFlight) return;
    if (this.replyParts.length === 0 && frame.body.length === 0 && frame.flags & FLAG_MORE) {
      this.replyParts.push(frame.body);
      return;
    }
    this.replyParts.push(frame.body);
    if (frame.flags & FLAG_MORE) return;
    const reply = Buffer.concat(this.replyParts.slice(1)).toString('utf8');
    const done = this.inFlight;
    this.inFlight = undefined;
    this.replyParts = [];
    done.resolve(reply);
    this.pump();
  }

  private pump(): void {
    if (this.state !== 'ready' || this.inFlight) return;
    const next = this.queue.shift();
    if (!next) return;
    this.inFlight = next;
    this.socket.write(Buffer.concat([encodeFrame(Buffer.alloc(0), FLAG_MORE), encodeFrame(next.body, 0)]));
  }

  private fail(err: Error, onFail: (err: Error) => void): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.failure = err;
    onFail(err);
    this.socket.destroy();
    for (const p of [...(this.inFlight ? [this.inFlight] : []), ...this.queue.splice(0)]) p.reject(err);
    this.inFlight = undefined;
  }
}
