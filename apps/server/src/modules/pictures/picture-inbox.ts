import type { FastifyBaseLogger } from 'fastify';
import { type AgentMessageOf, type PictureEvent, type PictureMeta, type SnapshotTaskSpec, type TaskShotReport, decodePictureChunk } from '@ship-cctv/protocol';
import { type AgentGateway, type InboxState, ShipInboxes } from '../../core/ship-link/index.ts';
import { backoffMs } from '../../core/storage/transient.ts';
import type { PictureFiles } from './picture-files.ts';
import type { NewPictureRow, PictureIndex } from './repo.ts';

/** Where a ship's picture belongs (its organisation and channel), looked up when it is offered. */
export interface PictureOwner {
  orgId: string;
  channelId: string;
}

export interface PictureInboxDeps {
  gateway: AgentGateway;
  files: PictureFiles;
  index: PictureIndex;
  /** The organisation and channel of a camera of a ship (undefined: the ship is unknown). */
  ownerOf(shipId: string, cameraId: string): Promise<PictureOwner | undefined>;
  /** Tells the pages watching the ship (STOMP /pictures/{shipName}). */
  publish(event: PictureEvent): void;
  /** A picture is on shore now (waiters of a fetch hear it). */
  stored(shipId: string, pictureId: string): void;
  log: FastifyBaseLogger;
  /** Progress is told at most this often per picture. Default 250 ms. */
  progressEveryMs?: number;
  /** A picture the shared store did not take yet is tried again after this, doubling up to `maxMs`. Default 2 s to 60 s. */
  storeRetry?: { firstMs: number; maxMs: number };
  /** Snapshot tasks: what each ship is to hold, and what it says it holds and shot. */
  tasks?: {
    specsFor(shipId: string): Promise<SnapshotTaskSpec[]>;
    held(shipId: string, taskIds: readonly string[]): Promise<void>;
    shots(shipId: string, taskId: string, shots: readonly TaskShotReport[]): Promise<void>;
  };
}

/** A picture held whole in `incoming/` that the shared store has not taken yet, tried again later. */
interface Storing {
  transfer: Transfer;
  /** Tries so far. */
  attempts: number;
  timer: NodeJS.Timeout | undefined;
}

interface Transfer {
  meta: PictureMeta;
  /** Bytes of it on disk in `incoming/`. */
  held: number;
  owner: PictureOwner;
  lastProgressAt: number;
  /** A resume was sent after a gap; another is not sent until bytes arrive in order again. */
  resumed: boolean;
  finishing: boolean;
}

/** An open inbox; its hand-overs (`pending`) are task sets not yet answered (`tasksHeld`). */
interface Inbox extends InboxState<'pictures'> {
  transfer: Transfer | undefined;
}

/**
 * Shore's end of the ships' picture outboxes: one inbox stream per connected ship while it has
 * something to carry (ShipInboxes: at hello for an agent of link version 3 or older; from version 4
 * when the agent asks — a picture or shot report to send, or tasks held that shore may have changed
 * — or when shore has snapshot tasks to hand the ship, at hello or when they change; closed once
 * the ship said `idle` and no task hand-over is unanswered). An offered picture shore holds already is answered `stored`
 * at once (a duplicate delivery changes nothing); otherwise shore says from which byte to send
 * (what it holds of the picture in `incoming/`, kept across outages and restarts of either
 * end), appends the chunks, and once the last byte is in checks the picture (size, checksum, a
 * JPEG that decodes) before it stores it and answers `stored`. Bytes that are not the picture
 * are thrown away and answered `rejected`: the ship sends it again from the start. A good picture
 * the shared store does not take yet (slow or away) stays whole in `incoming/`, is answered
 * `storing` (the ship waits, and an offer of it again is answered `storing` with no bytes asked
 * for), and is stored in the background, tried again with backoff until the store takes it; then
 * `stored` goes on the ship's inbox open at that moment.
 */
export class PictureInbox {
  private readonly inboxes: ShipInboxes<'pictures', Inbox, SnapshotTaskSpec[]>;
  private readonly storing = new Map<string, Storing>();
  /** Pictures being checked and stored right now (`ship/picture`). */
  private readonly finishing = new Set<string>();

  constructor(private readonly deps: PictureInboxDeps) {
    this.inboxes = new ShipInboxes<'pictures', Inbox, SnapshotTaskSpec[]>({
      gateway: deps.gateway,
      kind: 'pictures',
      log: deps.log,
      // At hello (on demand): opened now only when shore has tasks for the ship, else when the ship asks.
      heldFor: async (shipId) => {
        const specs = deps.tasks ? await deps.tasks.specsFor(shipId) : [];
        return specs.length > 0 ? specs : undefined;
      },
      create: (stream) => ({ stream, transfer: undefined, pending: 0, idle: false }),
      opened: (shipId, _inbox, specs) => void this.pushTasks(shipId, specs).catch((err: unknown) => deps.log.error({ err, shipId }, 'picture inbox: handing over tasks failed')),
      message: (shipId, inbox, msg) => this.onMessage(shipId, inbox, msg),
      data: (shipId, inbox, payload) => this.onData(shipId, inbox, payload),
      lost: (shipId, inbox) => {
        const t = inbox.transfer;
        if (t) deps.publish({ event: 'waiting', shipId, pictureId: t.meta.pictureId, cameraId: t.meta.cameraId, bytes: t.held, total: t.meta.bytes });
      },
    });
  }

  close(): void {
    this.inboxes.close();
    // What waits for the store stays in incoming/: the ship offers it again, and it is stored then.
    for (const s of this.storing.values()) clearTimeout(s.timer);
    this.storing.clear();
  }

  /** Pictures held whole here that the shared store has not taken yet. */
  get waitingForStore(): number {
    return this.storing.size;
  }

  /** Whether the ship's link is on this instance (its inbox is open here, or opens here on demand). */
  holds(shipId: string): boolean {
    return this.inboxes.holds(shipId);
  }

  /** Whether the ship's inbox is open now. */
  isOpen(shipId: string): boolean {
    return this.inboxes.isOpen(shipId);
  }

  /** Sends the ship the whole set of its snapshot tasks: on its inbox, opened for them when none is (its link is here). */
  async pushTasks(shipId: string, known?: SnapshotTaskSpec[]): Promise<void> {
    const tasks = this.deps.tasks;
    if (!tasks) return;
    const first = this.inboxes.get(shipId);
    // open() hands the tasks over on the inbox it opens (an agent without pictures has none).
    if (!first) {
      if (this.deps.gateway.get(shipId)?.ready) this.inboxes.open(shipId, known);
      return;
    }
    first.pending++;
    try {
      const specs = known ?? (await tasks.specsFor(shipId));
      // The inbox may have changed while the tasks were read: send on the one open now. Sent
      // before the read is released: a ship that said idle meanwhile would otherwise see its
      // inbox closed with the tasks never sent.
      const inbox = this.inboxes.get(shipId);
      if (!inbox) return;
      inbox.pending++;
      inbox.stream.send({ type: 'pictures.tasks', streamId: inbox.stream.id, tasks: specs });
    } finally {
      this.inboxes.release(shipId, first);
    }
  }

  private async onMessage(shipId: string, inbox: Inbox, msg: AgentMessageOf<'pictures'>): Promise<void> {
    if (msg.type === 'pictures.tasksHeld') {
      const held = this.deps.tasks?.held(shipId, msg.taskIds);
      this.inboxes.release(shipId, inbox);
      return held;
    }
    if (msg.type === 'pictures.shots') return this.deps.tasks?.shots(shipId, msg.taskId, msg.shots);
    if (msg.type !== 'pictures.offer') return;
    const { stream } = inbox;
    const meta = msg.picture;
    if (await heldFor(this.deps.index, shipId, meta.pictureId)) {
      // Delivered before (an acknowledgement lost with the link): shore keeps the one it has.
      inbox.transfer = undefined;
      this.deps.files.discard(shipId, meta.pictureId);
      stream.send({ type: 'pictures.stored', streamId: stream.id, pictureId: meta.pictureId });
      return;
    }
    const key = storingKey(shipId, meta.pictureId);
    if (this.storing.has(key)) {
      // Held whole here, waiting for the store: no byte of it is asked for again.
      stream.send({ type: 'pictures.storing', streamId: stream.id, pictureId: meta.pictureId });
      return;
    }
    // Being checked and stored now (offered again meanwhile): its answer follows when that is done.
    if (this.finishing.has(key)) return;
    const owner = await this.deps.ownerOf(shipId, meta.cameraId);
    if (!owner) {
      stream.send({ type: 'pictures.rejected', streamId: stream.id, pictureId: meta.pictureId, reason: `camera ${meta.cameraId} is not known on shore` });
      return;
    }
    let offset = this.deps.files.received(shipId, meta.pictureId);
    if (offset > meta.bytes) {
      this.deps.files.discard(shipId, meta.pictureId);
      offset = 0;
    }
    const transfer: Transfer = { meta, owner, held: offset, lastProgressAt: 0, resumed: false, finishing: false };
    inbox.transfer = transfer;
    this.progress(shipId, transfer, offset, true);
    if (offset === meta.bytes) return this.finish(shipId, transfer);
    stream.send({ type: 'pictures.resume', streamId: stream.id, pictureId: meta.pictureId, offset });
  }

  private onData(shipId: string, inbox: Inbox, payload: Uint8Array): void {
    const transfer = inbox.transfer;
    const chunk = decodePictureChunk(payload);
    if (!transfer || transfer.finishing || !chunk) return;
    const { meta } = transfer;
    if (chunk.offset + chunk.bytes.length > meta.bytes) {
      this.deps.log.warn({ shipId, pictureId: meta.pictureId, offset: chunk.offset }, 'picture inbox: bytes past the end of the picture offered');
      return;
    }
    const held = this.deps.files.append(shipId, meta.pictureId, transfer.held, chunk.offset, chunk.bytes);
    if (held === undefined) {
      // A chunk beyond what is held: ask once for the bytes from where shore stands.
      if (!transfer.resumed) {
        transfer.resumed = true;
        inbox.stream.send({ type: 'pictures.resume', streamId: inbox.stream.id, pictureId: meta.pictureId, offset: transfer.held });
      }
      return;
    }
    transfer.held = held;
    transfer.resumed = false;
    this.progress(shipId, transfer, held, held === meta.bytes);
    if (held === meta.bytes) void this.finish(shipId, transfer);
  }

  private async finish(shipId: string, transfer: Transfer): Promise<void> {
    const key = storingKey(shipId, transfer.meta.pictureId);
    if (this.finishing.has(key)) return;
    this.finishing.add(key);
    try {
      await this.finishNow(shipId, transfer);
    } finally {
      this.finishing.delete(key);
    }
  }

  private async finishNow(shipId: string, transfer: Transfer): Promise<void> {
    transfer.finishing = true;
    const { meta, owner } = transfer;
    try {
      const verdict = await this.deps.files.complete(shipId, meta);
      if (!verdict.ok && verdict.later) return this.storeLater(shipId, transfer, verdict.reason);
      this.storing.delete(storingKey(shipId, meta.pictureId));
      // The link may have come back while the store was slow: answer on the inbox open now.
      const inbox = this.inboxes.get(shipId);
      if (!verdict.ok) {
        this.deps.log.warn({ shipId, pictureId: meta.pictureId, reason: verdict.reason }, 'picture inbox: a picture from the ship was rejected');
        this.deps.publish({ event: 'failed', shipId, pictureId: meta.pictureId, cameraId: meta.cameraId, code: 'rejected', message: verdict.reason });
        if (inbox?.transfer === transfer) inbox.transfer = undefined;
        inbox?.stream.send({ type: 'pictures.rejected', streamId: inbox.stream.id, pictureId: meta.pictureId, reason: verdict.reason });
        return;
      }
      const row: NewPictureRow = {
        id: meta.pictureId,
        orgId: owner.orgId,
        shipId,
        channelId: owner.channelId,
        cameraId: meta.cameraId,
        takenAt: new Date(meta.time),
        origin: meta.origin,
        taskId: meta.taskId ?? null,
        mime: meta.mime,
        bytes: meta.bytes,
        width: meta.width,
        height: meta.height,
        sha256: meta.sha256,
        file: verdict.file,
        thumbFile: verdict.thumbFile,
        thumbBytes: verdict.thumbBytes,
      };
      if (!(await this.deps.index.insert(row))) {
        // Stored meanwhile (another connection of the ship delivered it): keep that one — and its
        // files, which share these paths (and shared-store keys) when it was taken the same day.
        const kept = await this.deps.index.get(meta.pictureId);
        if (kept?.file !== verdict.file) await this.deps.files.remove(verdict.file);
        if (kept?.thumbFile !== verdict.thumbFile) await this.deps.files.remove(verdict.thumbFile);
      }
      const current = this.inboxes.get(shipId);
      if (current?.transfer === transfer) current.transfer = undefined;
      current?.stream.send({ type: 'pictures.stored', streamId: current.stream.id, pictureId: meta.pictureId });
      this.deps.publish({ event: 'stored', shipId, pictureId: meta.pictureId, cameraId: meta.cameraId, bytes: meta.bytes, total: meta.bytes });
      this.deps.stored(shipId, meta.pictureId);
    } catch (err) {
      transfer.finishing = false;
      this.storing.delete(storingKey(shipId, meta.pictureId));
      this.deps.log.error({ err, shipId, pictureId: meta.pictureId }, 'picture inbox: storing a picture failed');
    }
  }

  /**
   * The picture is good and held whole in `incoming/`, but the shared store did not take it: the
   * ship hears `storing` (it waits instead of sending it again) and the store is tried again later.
   */
  private storeLater(shipId: string, transfer: Transfer, reason: string): void {
    const { meta } = transfer;
    const key = storingKey(shipId, meta.pictureId);
    const entry = this.storing.get(key) ?? { transfer, attempts: 0, timer: undefined };
    entry.attempts++;
    this.storing.set(key, entry);
    const inbox = this.inboxes.get(shipId);
    if (inbox?.transfer === transfer) inbox.transfer = undefined;
    if (entry.attempts === 1) inbox?.stream.send({ type: 'pictures.storing', streamId: inbox.stream.id, pictureId: meta.pictureId });
    const { firstMs, maxMs } = this.deps.storeRetry ?? { firstMs: 2_000, maxMs: 60_000 };
    const wait = backoffMs(entry.attempts, firstMs, maxMs);
    this.deps.log.warn({ shipId, pictureId: meta.pictureId, attempts: entry.attempts, retryInMs: wait, reason }, 'picture inbox: the store did not take a picture yet; it is held here and tried again');
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      if (this.storing.get(key) !== entry) return;
      void this.finish(shipId, transfer);
    }, wait);
    entry.timer.unref();
  }

  private progress(shipId: string, transfer: Transfer, held: number, force: boolean): void {
    const now = Date.now();
    if (!force && now - transfer.lastProgressAt < (this.deps.progressEveryMs ?? 250)) return;
    transfer.lastProgressAt = now;
    this.deps.publish({ event: 'progress', shipId, pictureId: transfer.meta.pictureId, cameraId: transfer.meta.cameraId, bytes: held, total: transfer.meta.bytes });
  }
}

const storingKey = (shipId: string, pictureId: string) => `${shipId}/${pictureId}`;

/**
 * Whether shore holds this ship's picture of that id. Another ship's picture of the same id counts
 * as none: a ship learns nothing of other ships' pictures from the inbox's answers (it is asked for
 * the bytes as for an unknown id; the insert then keeps the other ship's picture).
 */
async function heldFor(index: Pick<PictureIndex, 'get'>, shipId: string, pictureId: string): Promise<boolean> {
  return (await index.get(pictureId))?.shipId === shipId;
}
