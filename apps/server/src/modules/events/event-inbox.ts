import type { FastifyBaseLogger } from 'fastify';
import { type AgentMessageOf, type CameraEventSettingsEntry, type EventClass, type ShipEvent, decodeEventChunk } from '@ship-cctv/protocol';
import { type AgentGateway, type InboxState, ShipInboxes } from '../../core/ship-link/index.ts';
import type { EventFiles } from './event-files.ts';
import type { EventRepo, EventRow } from './repo.ts';

export interface EventInboxDeps {
  gateway: AgentGateway;
  files: EventFiles;
  repo: EventRepo;
  /** Every camera's settings of a ship that shore keeps (sent when the inbox opens and on change). */
  settingsFor(shipId: string): Promise<CameraEventSettingsEntry[]>;
  /** A new event is on shore (not called for one delivered again). */
  stored(row: EventRow): Promise<void>;
  /** An event on shore was offered again having gone on (a later end, more classes) and was amended. */
  amended?(row: EventRow): Promise<void>;
  /** Whether the ship's events budget is used up: its events wait in its outbox. Absent: never. */
  budgetUsedUp?(shipId: string): Promise<boolean>;
  /** Whether the ship's agent waits on `events.held` (EVENTS_HOLD_CAPABILITY); others get no answer while held. */
  agentHolds?(shipId: string): boolean;
  /** How often a held event asks the budget again (default 30 s). */
  budgetRecheckMs?: number;
  log: FastifyBaseLogger;
}

interface Transfer {
  event: ShipEvent;
  orgId: string;
  /** Bytes of the picture on disk in `incoming/`. */
  held: number;
  /** A resume was sent after a gap; another is not sent until bytes arrive in order again. */
  resumed: boolean;
  finishing: boolean;
  /** Held while the ship's events budget is used up: no bytes are asked for until it allows. */
  waiting?: boolean;
}

/** An open inbox; its hand-overs (`pending`) are settings being read to go down on it. */
interface Inbox extends InboxState<'events'> {
  transfer: Transfer | undefined;
  /** Asks the budget again for a held event. */
  recheck?: NodeJS.Timeout;
}

/**
 * Shore's end of the ships' event outboxes: one inbox stream per connected ship while there is
 * something to carry (packages/protocol/src/link/events.ts; ShipInboxes: at hello for an agent of
 * link version 3 or older; from version 4 when the agent asks — events or a status to send, or
 * settings held that shore may have changed — or when shore holds settings for the ship's cameras,
 * at hello or when they change; closed once the ship said `idle` and no settings are on their way). An offered event
 * shore holds already is answered `stored` at once; otherwise shore asks for its picture from the
 * byte it holds (in `incoming/`, across outages and restarts), checks the whole picture, stores the
 * event and answers `stored`. A picture that is not the one offered is thrown away and answered
 * `rejected`; an event of a camera shore does not know is `refused`. The inbox also carries the
 * cameras' settings to the ship and the ship's analysis status back. While the ship's events
 * budget is used up an offered event is held (`events.held`): shore asks for no bytes and asks the
 * budget again every `budgetRecheckMs`, then asks for the picture as usual; the event waits in
 * the ship's outbox meanwhile, so nothing is lost.
 */
export class EventInbox {
  private readonly inboxes: ShipInboxes<'events', Inbox, CameraEventSettingsEntry[]>;

  constructor(private readonly deps: EventInboxDeps) {
    this.inboxes = new ShipInboxes<'events', Inbox, CameraEventSettingsEntry[]>({
      gateway: deps.gateway,
      kind: 'events',
      log: deps.log,
      // At hello (on demand): opened now only when shore holds settings for the ship, else when the ship asks.
      heldFor: async (shipId) => {
        const cameras = await deps.settingsFor(shipId);
        return cameras.length > 0 ? cameras : undefined;
      },
      create: (stream) => ({ stream, transfer: undefined, pending: 0, idle: false }),
      // The settings go down on the inbox just opened (an agent without events has none).
      opened: (shipId, _inbox, cameras) => void this.pushSettings(shipId, cameras).catch((err: unknown) => deps.log.error({ err, shipId }, 'event inbox: sending the cameras’ settings failed')),
      message: (shipId, inbox, msg) => this.onMessage(shipId, inbox, msg),
      data: (shipId, inbox, payload) => this.onData(shipId, inbox, payload),
      ended: (inbox) => clearTimeout(inbox.recheck),
    });
  }

  close(): void {
    this.inboxes.close();
  }

  /** Whether the ship's link is on this instance (its inbox is open here, or opens here on demand). */
  holds(shipId: string): boolean {
    return this.inboxes.holds(shipId);
  }

  /** Whether the ship's inbox is open now. */
  isOpen(shipId: string): boolean {
    return this.inboxes.isOpen(shipId);
  }

  /** Sends the ship every camera's settings: on its inbox, opened for them when none is (its link is here). */
  async pushSettings(shipId: string, known?: CameraEventSettingsEntry[]): Promise<void> {
    const first = this.inboxes.get(shipId);
    // open() sends the settings on the inbox it opens (an agent without events has none).
    if (!first) {
      if (this.deps.gateway.get(shipId)?.ready) this.inboxes.open(shipId, known);
      return;
    }
    first.pending++;
    let cameras: CameraEventSettingsEntry[] | undefined;
    try {
      cameras = known ?? (await this.deps.settingsFor(shipId));
    } finally {
      // Sent on the inbox open now (it may have changed while they were read); the ship has them
      // before it hears the inbox closed, so nothing waits for an answer.
      const inbox = this.inboxes.get(shipId);
      if (cameras && inbox) inbox.stream.send({ type: 'events.settings', streamId: inbox.stream.id, cameras });
      this.inboxes.release(shipId, first);
    }
  }

  private async onMessage(shipId: string, inbox: Inbox, msg: AgentMessageOf<'events'>): Promise<void> {
    if (msg.type === 'events.status') {
      for (const s of msg.cameras) if (s.state === 'modelFailed') this.deps.log.warn({ shipId, cameraId: s.cameraId, reason: s.reason }, 'events: the ship’s analysis of a camera failed to load its model');
      return this.deps.repo.saveStatuses(shipId, msg.cameras);
    }
    if (msg.type !== 'events.offer') return;
    const { stream } = inbox;
    const { event } = msg;
    const send = (m: Parameters<typeof stream.send>[0]) => stream.send(m);
    const known = await this.deps.repo.get(event.eventId);
    if (known && known.shipId !== shipId) {
      send({ type: 'events.refused', streamId: stream.id, eventId: event.eventId, reason: 'an event of that id came from another ship' });
      return;
    }
    if (known) {
      // Delivered before (an acknowledgement lost with the link), or offered again because it went
      // on after it was sent: shore keeps its picture and takes a later end and the classes.
      inbox.transfer = undefined;
      this.deps.files.discard(shipId, event.eventId);
      if (wentOn(known, event)) {
        const row = await this.deps.repo.amend(event.eventId, shipId, { endMs: event.end, recordingTo: event.recording.to, classes: mergedClasses(known.classes, event.classes) });
        if (row) await this.deps.amended?.(row);
      }
      send({ type: 'events.stored', streamId: stream.id, eventId: event.eventId });
      return;
    }
    if (inbox.transfer?.event.eventId === event.eventId && inbox.transfer.finishing) return;
    const owner = await this.deps.repo.cameraOwner(shipId, event.cameraId);
    if (!owner) {
      send({ type: 'events.refused', streamId: stream.id, eventId: event.eventId, reason: `camera ${event.cameraId} is not known on shore` });
      return;
    }
    let offset = this.deps.files.received(shipId, event.eventId);
    if (offset > event.picture.bytes) {
      this.deps.files.discard(shipId, event.eventId);
      offset = 0;
    }
    const transfer: Transfer = { event, orgId: owner.orgId, held: offset, resumed: false, finishing: false };
    clearTimeout(inbox.recheck);
    inbox.transfer = transfer;
    if (offset === event.picture.bytes) return this.finish(shipId, transfer);
    if (await this.budgetUsedUp(shipId)) {
      if (inbox.transfer !== transfer) return;
      transfer.waiting = true;
      if (this.deps.agentHolds?.(shipId)) send({ type: 'events.held', streamId: stream.id, eventId: event.eventId, reason: 'the ship’s events budget is used up' });
      return this.recheck(shipId, inbox, transfer);
    }
    if (inbox.transfer !== transfer) return;
    send({ type: 'events.resume', streamId: stream.id, eventId: event.eventId, offset });
  }

  private async budgetUsedUp(shipId: string): Promise<boolean> {
    try {
      return (await this.deps.budgetUsedUp?.(shipId)) ?? false;
    } catch (err) {
      // The budget cannot be read now: the event is not held for it (as when no budget is set).
      this.deps.log.error({ err, shipId }, 'event inbox: reading the ship’s events budget failed');
      return false;
    }
  }

  /** A held event asks the budget again later; once it allows, shore asks for the picture from what it holds. */
  private recheck(shipId: string, inbox: Inbox, transfer: Transfer): void {
    clearTimeout(inbox.recheck);
    inbox.recheck = setTimeout(() => {
      void (async () => {
        if (this.inboxes.get(shipId) !== inbox || inbox.transfer !== transfer) return;
        if (await this.budgetUsedUp(shipId)) return this.recheck(shipId, inbox, transfer);
        if (this.inboxes.get(shipId) !== inbox || inbox.transfer !== transfer) return;
        transfer.waiting = false;
        inbox.stream.send({ type: 'events.resume', streamId: inbox.stream.id, eventId: transfer.event.eventId, offset: transfer.held });
      })().catch((err: unknown) => this.deps.log.error({ err, shipId }, 'event inbox: asking the budget again failed'));
    }, this.deps.budgetRecheckMs ?? 30_000);
    inbox.recheck.unref();
  }

  private onData(shipId: string, inbox: Inbox, payload: Uint8Array): void {
    const transfer = inbox.transfer;
    const chunk = decodeEventChunk(payload);
    if (!transfer || transfer.finishing || transfer.waiting || !chunk) return;
    const { event } = transfer;
    if (chunk.offset + chunk.bytes.length > event.picture.bytes) {
      this.deps.log.warn({ shipId, eventId: event.eventId, offset: chunk.offset }, 'event inbox: bytes past the end of the picture offered');
      return;
    }
    const held = this.deps.files.append(shipId, event.eventId, transfer.held, chunk.offset, chunk.bytes);
    if (held === undefined) {
      if (!transfer.resumed) {
        transfer.resumed = true;
        inbox.stream.send({ type: 'events.resume', streamId: inbox.stream.id, eventId: event.eventId, offset: transfer.held });
      }
      return;
    }
    transfer.held = held;
    transfer.resumed = false;
    if (held === event.picture.bytes) void this.finish(shipId, transfer);
  }

  private async finish(shipId: string, transfer: Transfer): Promise<void> {
    transfer.finishing = true;
    const { event } = transfer;
    const answer = (m: { type: 'events.stored' } | { type: 'events.rejected'; reason: string }) => {
      const inbox = this.inboxes.get(shipId);
      if (inbox?.transfer === transfer) inbox.transfer = undefined;
      inbox?.stream.send({ ...m, streamId: inbox.stream.id, eventId: event.eventId });
    };
    try {
      const verdict = await this.deps.files.complete(shipId, event);
      if (!verdict.ok) {
        this.deps.log.warn({ shipId, eventId: event.eventId, reason: verdict.reason }, 'event inbox: an event picture from the ship was rejected');
        return answer({ type: 'events.rejected', reason: verdict.reason });
      }
      const row: EventRow = {
        id: event.eventId,
        orgId: transfer.orgId,
        shipId,
        cameraId: event.cameraId,
        startMs: event.start,
        endMs: event.end,
        classes: event.classes,
        classNames: event.classes.map((c) => c.class),
        zone: event.zone ?? null,
        pictureBytes: event.picture.bytes,
        pictureWidth: event.picture.width,
        pictureHeight: event.picture.height,
        pictureSha256: event.picture.sha256,
        pictureFile: verdict.file,
        recordingFrom: event.recording.from,
        recordingTo: event.recording.to,
        acknowledgedBy: null,
        acknowledgedAt: null,
        receivedAt: new Date(),
      };
      const fresh = await this.deps.repo.insert(row);
      answer({ type: 'events.stored' });
      if (fresh) await this.deps.stored(row);
    } catch (err) {
      // Left as it is: the ship offers the event again after its answer time, and the whole picture held here is finished then.
      transfer.finishing = false;
      this.deps.log.error({ err, shipId, eventId: event.eventId }, 'event inbox: storing an event failed');
    }
  }
}

/** Whether an offer of an event shore holds says more than shore has: a later end or recording span, or a class or score it lacks. */
function wentOn(known: Pick<EventRow, 'endMs' | 'recordingTo' | 'classes'>, event: ShipEvent): boolean {
  if (event.end > known.endMs || event.recording.to > known.recordingTo) return true;
  const had = new Map(known.classes.map((c) => [c.class, c.score]));
  return event.classes.some((c) => c.score > (had.get(c.class) ?? -1));
}

/** Each class of either, with its best score, best first. */
function mergedClasses(a: readonly { class: EventClass; score: number }[], b: readonly { class: EventClass; score: number }[]): { class: EventClass; score: number }[] {
  const best = new Map<EventClass, number>();
  for (const c of [...a, ...b]) best.set(c.class, Math.max(best.get(c.class) ?? 0, c.score));
  return [...best].map(([c, score]) => ({ class: c, score })).sort((x, y) => y.score - x.score);
}
