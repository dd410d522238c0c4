import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TalkEndReason, TalkErrorCode, TalkServerMessage } from '@ship-cctv/protocol';
import type { EarlyMessage } from '../viewer/index.ts';
import type { AuthContext } from '../../core/http/auth.ts';
import type { ActiveTalk, TalkService } from './talk-service.ts';

const StartCommand = Compile(
  Type.Object({
    type: Type.Literal('talk.start'),
    // No control characters (NUL included): such an id is refused here, not by the database.
    cameraId: Type.String({ minLength: 1, maxLength: 64, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
    format: Type.Union([Type.Literal('opus'), Type.Literal('webm')]),
  }),
);

/** Voice held while the talk is being checked (a few seconds of 12 kbit/s Opus). */
const PENDING_LIMIT_BYTES = 64 * 1024;
/** One voice message at most (a second of WebM from MediaRecorder is far less). */
const MESSAGE_LIMIT_BYTES = 32 * 1024;

/**
 * One talk on a media socket of its own: `talk.start` (the first command) checks and starts the
 * talk; binary messages are the voice, sent on down to the ship; `talk.stop` or the socket's end
 * stops it. Voice that arrives while the talk is being checked is held and sent once it starts,
 * so the first syllable is not lost to shore's checks.
 */
export class TalkSocket {
  private talk: ActiveTalk | undefined;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private done = false;

  constructor(
    private readonly ws: WebSocket,
    readonly auth: AuthContext,
    private readonly service: TalkService,
    private readonly log: FastifyBaseLogger,
    private readonly onDone: () => void,
  ) {}

  begin(first: unknown, rest: EarlyMessage[]): void {
    this.ws.on('message', (data, isBinary) => this.receive(Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer), isBinary));
    this.ws.on('close', () => this.finish());
    this.ws.on('error', () => this.finish());
    for (const m of rest) this.receive(m.data, m.isBinary);
    if (!StartCommand.Check(first)) {
      this.log.info({ userId: this.auth.user.id }, 'talk: start command refused');
      return this.fail('badRequest', 'expected {"type":"talk.start","cameraId":… (1 to 64 characters, no control characters),"format":"opus"|"webm"}');
    }
    this.service
      .start(this.auth, first.cameraId, first.format, { ended: (reason, message) => this.ended(reason, message) })
      .then((started) => {
        if (!started.ok) return this.fail(started.code, started.message, started.holder);
        if (this.done) return started.talk.stop();
        this.talk = started.talk;
        this.send({ type: 'talk.started', maxSeconds: started.talk.maxSeconds, talker: started.talk.talker });
        for (const p of this.pending.splice(0)) started.talk.send(p);
        this.pendingBytes = 0;
      })
      .catch((err: unknown) => {
        this.log.error({ err }, 'talk: starting failed');
        this.fail('internal', 'the server could not start the talk');
      });
  }

  /** Ends the talk from shore's side (the user signed out or was displaced). */
  end(reason: TalkEndReason, message: string): void {
    this.talk?.stop();
    this.ended(reason, message);
  }

  private receive(data: Buffer, isBinary: boolean): void {
    if (this.done) return;
    if (isBinary) {
      if (data.length > MESSAGE_LIMIT_BYTES) return this.fail('badRequest', `a voice message may carry at most ${MESSAGE_LIMIT_BYTES} bytes`);
      if (this.talk) return this.talk.send(data);
      this.pendingBytes += data.length;
      if (this.pendingBytes > PENDING_LIMIT_BYTES) return this.fail('badRequest', 'too much voice before the talk started');
      this.pending.push(data);
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(data.toString('utf8'));
    } catch {
      return this.fail('badRequest', 'messages must be JSON');
    }
    if (typeof msg === 'object' && msg !== null && 'type' in msg && msg.type === 'talk.stop') {
      this.talk?.stop();
      this.ended('stopped');
      return;
    }
    this.fail('badRequest', 'on a talk socket only talk.stop and voice are accepted');
  }

  private ended(reason: TalkEndReason, message?: string): void {
    if (this.done) return;
    this.send({ type: 'talk.ended', reason, ...(message ? { message } : {}) });
    this.close();
  }

  private fail(code: TalkErrorCode, message: string, holder?: string): void {
    if (this.done) return;
    this.talk?.stop();
    this.send({ type: 'talk.error', code, message, ...(holder ? { holder } : {}) });
    this.close();
  }

  private send(msg: TalkServerMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(msg));
  }

  private close(): void {
    this.finish();
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(1000, 'talk over');
  }

  /** The socket is gone (or closing): the talk ends and the ship is free. */
  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.talk?.stop();
    this.talk = undefined;
    this.pending = [];
    this.onDone();
  }
}
