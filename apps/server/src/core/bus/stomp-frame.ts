/**
 * STOMP 1.2 frame codec: an incremental parser fed WebSocket messages and a serializer.
 * Pure: no sockets, no timers. https://stomp.github.io/stomp-specification-1.2.html
 *
 *   frame = command EOL *(header EOL) EOL *OCTET NUL *(EOL)
 *
 * A WebSocket message may hold several frames, part of one, or only heart-beat EOLs.
 */

export type StompHeaders = Readonly<Record<string, string>>;

export interface StompFrame {
  command: string;
  /** First occurrence of each header wins (spec "Repeated Header Entries"); a null-prototype object. */
  headers: StompHeaders;
  body: Buffer;
}

export interface OutgoingFrame {
  command: string;
  /** Entries whose value is undefined are left out; content-length is computed, never taken from here. */
  headers?: Readonly<Record<string, string | number | undefined>>;
  /** Absent means no body and no content-length header. */
  body?: string | Uint8Array;
}

export type FrameErrorCode =
  | 'frame-too-large'
  | 'too-many-headers'
  | 'header-too-long'
  | 'invalid-escape'
  | 'invalid-content-length'
  | 'invalid-utf8'
  | 'malformed';

/** A frame the peer sent that cannot be parsed; the connection cannot continue after it. */
export class StompFrameError extends Error {
  readonly code: FrameErrorCode;
  constructor(code: FrameErrorCode, message: string) {
    super(message);
    this.name = 'StompFrameError';
    this.code = code;
  }
}

export interface FrameLimits {
  /** Whole frame: command, headers, body and NUL. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** One header line (name, colon and value, escaped), also the command line. */
  maxHeaderBytes: number;
}

export const DEFAULT_FRAME_LIMITS: Readonly<FrameLimits> = {
  maxFrameBytes: 64 * 1024,
  maxHeaders: 64,
  maxHeaderBytes: 8 * 1024,
};

/** CONNECT and CONNECTED keep raw header values so 1.0 peers can read them (spec "Value Encoding"). */
const UNESCAPED_COMMANDS: ReadonlySet<string> = new Set(['CONNECT', 'CONNECTED']);

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const NUL = 0x00;
const EMPTY = Buffer.alloc(0);
const NUL_BYTE = Buffer.from([NUL]);
const COMMAND_RE = /^[A-Z]+$/;
const CONTENT_LENGTH_RE = /^[0-9]{1,10}$/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new StompFrameError('invalid-utf8', 'Frame head is not valid UTF-8');
  }
}

/** Reverses the four STOMP 1.2 escapes; any other backslash sequence is a fatal error (spec). */
export function unescapeHeader(raw: string): string {
  if (!raw.includes('\\')) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = raw[++i];
    if (next === 'r') out += '\r';
    else if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else if (next === '\\') out += '\\';
    else throw new StompFrameError('invalid-escape', `Invalid escape sequence \\${next ?? ''} in a header`);
  }
  return out;
}

export function escapeHeader(value: string): string {
  return value.replace(/[\\\r\n:]/g, (c) => (c === '\\' ? '\\\\' : c === '\r' ? '\\r' : c === '\n' ? '\\n' : '\\c'));
}

function toBuffer(chunk: Buffer | Uint8Array | ArrayBuffer | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof ArrayBuffer) return Buffer.from(chunk);
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

type ParserState = 'between' | 'head' | 'body';

/**
 * Incremental parser. `push` each WebSocket message as it arrives; `onFrame` is called for every
 * frame completed by it, in order. A malformed or oversized frame throws StompFrameError after
 * the frames before it were delivered, and the parser stays failed (every later push throws).
 *
 * The unconsumed bytes always start at the current frame, and scanning resumes where the last
 * push stopped, so a frame split over many messages is not re-scanned from its start.
 */
export class FrameParser {
  private readonly limits: FrameLimits;
  private buf: Buffer = EMPTY;
  private state: ParserState = 'between';
  private failure: StompFrameError | undefined;
  // Current frame, valid in 'head' and 'body'.
  private lineStart = 0;
  private command = '';
  private headers: Record<string, string> = Object.create(null) as Record<string, string>;
  private headerCount = 0;
  private bodyStart = 0;
  private contentLength = -1;
  private scanFrom = 0;

  constructor(limits: Partial<FrameLimits> = {}) {
    this.limits = { ...DEFAULT_FRAME_LIMITS, ...limits };
  }

  /** Bytes held for a frame not yet complete. */
  get bufferedBytes(): number {
    return this.buf.length;
  }

  get failed(): StompFrameError | undefined {
    return this.failure;
  }

  push(chunk: Buffer | Uint8Array | ArrayBuffer | string, onFrame: (frame: StompFrame) => void): void {
    if (this.failure) throw this.failure;
    const bytes = toBuffer(chunk);
    if (bytes.length === 0) return;
    this.buf = this.buf.length === 0 ? bytes : Buffer.concat([this.buf, bytes]);
    try {
      this.drain(onFrame);
    } catch (err) {
      if (err instanceof StompFrameError) {
        this.failure = err;
        this.buf = EMPTY;
      }
      throw err;
    }
  }

  private drain(onFrame: (frame: StompFrame) => void): void {
    const { maxFrameBytes } = this.limits;
    for (;;) {
      if (this.state === 'between') {
        // Heart-beats and the optional EOLs after a NUL.
        let i = 0;
        while (i < this.buf.length && (this.buf[i] === LF || this.buf[i] === CR)) i++;
        this.buf = i === this.buf.length ? EMPTY : this.buf.subarray(i);
        if (this.buf.length === 0) return;
        this.startFrame();
      }
      if (this.state === 'head') {
        if (!this.readHead()) {
          if (this.buf.length >= maxFrameBytes) throw tooLarge(maxFrameBytes);
          return;
        }
      }
      // state === 'body'
      let end: number;
      if (this.contentLength >= 0) {
        end = this.bodyStart + this.contentLength;
        if (this.buf.length <= end) return;
        if (this.buf[end] !== NUL) throw new StompFrameError('malformed', 'Frame body is longer than its content-length');
      } else {
        end = this.buf.indexOf(NUL, this.scanFrom);
        if (end === -1) {
          this.scanFrom = this.buf.length;
          if (this.buf.length >= maxFrameBytes) throw tooLarge(maxFrameBytes);
          return;
        }
        if (end + 1 > maxFrameBytes) throw tooLarge(maxFrameBytes);
      }
      // Copied so that a small frame does not pin the whole message buffer.
      const frame: StompFrame = { command: this.command, headers: this.headers, body: Buffer.from(this.buf.subarray(this.bodyStart, end)) };
      this.buf = this.buf.subarray(end + 1);
      this.state = 'between';
      onFrame(frame);
    }
  }

  private startFrame(): void {
    this.state = 'head';
    this.lineStart = 0;
    this.command = '';
    this.headers = Object.create(null) as Record<string, string>;
    this.headerCount = 0;
    this.bodyStart = 0;
    this.contentLength = -1;
    this.scanFrom = 0;
  }

  /** Reads complete head lines; true once the blank line is read and the body can start. */
  private readHead(): boolean {
    const { maxHeaderBytes, maxHeaders, maxFrameBytes } = this.limits;
    for (;;) {
      const nl = this.buf.indexOf(LF, this.lineStart);
      if (nl === -1) {
        if (this.buf.length - this.lineStart > maxHeaderBytes) throw headerTooLong(maxHeaderBytes);
        if (this.buf.subarray(this.lineStart).includes(NUL)) throw new StompFrameError('malformed', 'Frame ended inside its headers');
        return false;
      }
      const end = nl > this.lineStart && this.buf[nl - 1] === CR ? nl - 1 : nl;
      if (end - this.lineStart > maxHeaderBytes) throw headerTooLong(maxHeaderBytes);
      const line = this.buf.subarray(this.lineStart, end);
      if (line.includes(NUL)) throw new StompFrameError('malformed', 'Frame ended inside its headers');
      this.lineStart = nl + 1;
      if (this.lineStart >= maxFrameBytes) throw tooLarge(maxFrameBytes);

      if (this.command === '') {
        const command = decodeUtf8(line);
        if (!COMMAND_RE.test(command)) throw new StompFrameError('malformed', 'Frame does not start with a command');
        this.command = command;
        continue;
      }
      if (line.length === 0) break;
      if (++this.headerCount > maxHeaders) throw new StompFrameError('too-many-headers', `Frame has more than ${maxHeaders} headers`);
      const colon = line.indexOf(COLON);
      if (colon < 1) throw new StompFrameError('malformed', 'Header line without a name and colon');
      const raw = UNESCAPED_COMMANDS.has(this.command);
      const name = decodeUtf8(line.subarray(0, colon));
      const value = decodeUtf8(line.subarray(colon + 1));
      const key = raw ? name : unescapeHeader(name);
      if (!Object.hasOwn(this.headers, key)) this.headers[key] = raw ? value : unescapeHeader(value);
    }

    this.bodyStart = this.lineStart;
    this.scanFrom = this.bodyStart;
    const length = this.headers['content-length'];
    if (length !== undefined) {
      if (!CONTENT_LENGTH_RE.test(length)) throw new StompFrameError('invalid-content-length', `Invalid content-length ${JSON.stringify(length)}`);
      this.contentLength = Number(length);
      if (this.bodyStart + this.contentLength + 1 > maxFrameBytes) throw tooLarge(maxFrameBytes);
    }
    this.state = 'body';
    return true;
  }
}

function tooLarge(max: number): StompFrameError {
  return new StompFrameError('frame-too-large', `Frame is larger than ${max} bytes`);
}

function headerTooLong(max: number): StompFrameError {
  return new StompFrameError('header-too-long', `Header line is longer than ${max} bytes`);
}

/** Parses data holding only whole frames (tests, tools); throws on a partial or bad frame. */
export function parseFrames(data: Buffer | Uint8Array | string, limits?: Partial<FrameLimits>): StompFrame[] {
  const parser = new FrameParser(limits);
  const frames: StompFrame[] = [];
  parser.push(data, (f) => frames.push(f));
  if (parser.bufferedBytes > 0) throw new StompFrameError('malformed', 'Data ends inside a frame');
  return frames;
}

/**
 * Serializes one frame, with a content-length header whenever a body is given (so bodies may hold
 * NULs). Header names and values are escaped except in CONNECT/CONNECTED, where a line break or a
 * colon in a name cannot be written and throws.
 */
export function serializeFrame(frame: OutgoingFrame): Buffer {
  if (!COMMAND_RE.test(frame.command)) throw new Error(`Invalid STOMP command ${JSON.stringify(frame.command)}`);
  const raw = UNESCAPED_COMMANDS.has(frame.command);
  const body = frame.body === undefined ? undefined : toBuffer(frame.body);
  let head = `${frame.command}\n`;
  for (const [name, value] of Object.entries(frame.headers ?? {})) {
    if (value === undefined || name === 'content-length') continue;
    const text = String(value);
    if (raw) {
      if (/[\r\n:]/.test(name) || /[\r\n]/.test(text)) throw new Error(`Header ${JSON.stringify(name)} cannot be written unescaped in ${frame.command}`);
      head += `${name}:${text}\n`;
    } else {
      head += `${escapeHeader(name)}:${escapeHeader(text)}\n`;
    }
  }
  if (body !== undefined) head += `content-length:${body.length}\n`;
  head += '\n';
  return Buffer.concat([Buffer.from(head, 'utf8'), body ?? EMPTY, NUL_BYTE]);
}

/** What either side sends as a heart-beat (spec "Heart-beating"). */
export const HEARTBEAT = '\n';
