import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentMessage,
  BINARY_KIND,
  type CameraAnalysisStatus,
  type CameraEventSettings,
  type CameraEventSettingsEntry,
  DEFAULT_CAMERA_EVENT_SETTINGS,
  EVENT_CAMERAS_MAX,
  EVENT_CHUNK_HEADER_BYTES,
  INBOX_ON_DEMAND_VERSION,
  type ShipEvent,
  type ShoreMessageOf,
  encodeEventChunk,
  encodeStreamFrame,
} from '@ship-cctv/protocol';
import type { KindHandler } from '../../agent-link/router.ts';
import { BACKGROUND_FRAME_BYTES } from '../../uplink/scheduler.ts';
import { EventStore } from './event-store.ts';
import { OfferInFlight, sendFromOffset } from '../../uplink/offer-in-flight.ts';

type ShoreMsg = ShoreMessageOf<'events'>;

/** What the analysis hands its events to (the analyser calls it; this outbox implements it). */
export interface EventSink {
  add(event: ShipEvent, jpeg: Buffer): Promise<void>;
}

/** How events reach shore: messages as control, the pictures' bytes in the uplink's events class. */
export interface EventsLink {
  sendJson(message: AgentMessage): void;
  sendBinary(frame: Uint8Array): void;
}

export interface ShipEventsOptions {
  /** The agent's data directory: the outbox in `events/outbox/`, the settings in `events/settings.json`. Absent: a temporary folder. */
  dataDir?: string;
  /** Shore answers an offer, and says `stored` after the last byte, within this; else the event is offered again. Default 60 s. */
  answerTimeoutMs?: number;
  /** Most events held; past it the oldest goes (a disk of a month's events without a link). Default 20,000 (≤ 600 MB). */
  maxEvents?: number;
  /** A camera's settings arrived from shore (or changed): the analysis applies them. */
  onSettings?: (cameraId: string, settings: CameraEventSettings) => void;
  /** Something worth the log: an event dropped for space, a record the sink refused. */
  onWarning?: (message: string) => void;
}

/** Picture bytes per link frame: with its headers a frame stays within BACKGROUND_FRAME_BYTES. */
const CHUNK_BYTES = BACKGROUND_FRAME_BYTES - EVENT_CHUNK_HEADER_BYTES - 5;

/**
 * The ship's events on their way to shore: a durable outbox the analysis adds to whether or not
 * the link is up, sent one event at a time over the inbox stream shore opens on each connection
 * (see packages/protocol/src/link/events.ts for the exchange). An event leaves the outbox only on
 * shore's `stored` (or `refused`), so a link outage or an agent restart loses none; shore keeps
 * what it has by event id and answers an event it holds `stored` at once, so none is stored
 * twice. The cameras' analysis settings shore sends are kept on disk, so the analysis runs with
 * them after a restart without a link.
 */
export class ShipEvents implements KindHandler<'events'>, EventSink {
  readonly store: EventStore;
  private readonly maxEvents: number;
  private readonly scratch: string | undefined;
  private readonly settingsFile: string;
  private readonly settings = new Map<string, CameraEventSettings>();
  private statuses: CameraAnalysisStatus[] = [];
  private link: EventsLink | undefined;
  private inbox: number | undefined;
  /** The link version shore welcomed this connection with (from 4 the inbox opens on demand). */
  private protocol: number | undefined;
  /** Asked shore for the inbox (`outbox`) on this connection and not yet given one. */
  private asked = false;
  /**
   * Said `idle` on the inbox: nothing new goes on it until shore says it is closed, so nothing is
   * sent on an inbox shore may have closed; what comes meanwhile goes on the next one.
   */
  private idleSent = false;
  /** The cameras' analysis status as it is now was told to shore on this connection. */
  private statusTold = false;
  /** The event offered or on its way, given up when shore does not answer in time. */
  private readonly sending: OfferInFlight;
  /** The record offered: one that went on meanwhile (a new record in the outbox) is offered again after `stored`. */
  private offered: ShipEvent | undefined;
  /** Records shore stored since the agent started, an event's later records too (figures for tests and benchmarks). */
  delivered = 0;
  /** Closed with the agent: what shore still sends on a link not yet gone is not handled. */
  private closed = false;

  constructor(private readonly opts: ShipEventsOptions = {}) {
    // No answer: offered again (shore says where to resume).
    this.sending = new OfferInFlight(opts.answerTimeoutMs ?? 60_000, () => this.pump());
    this.maxEvents = opts.maxEvents ?? 20_000;
    this.scratch = opts.dataDir ? undefined : mkdtempSync(join(tmpdir(), 'ship-events-'));
    const dir = opts.dataDir ? join(opts.dataDir, 'events') : (this.scratch ?? '');
    mkdirSync(dir, { recursive: true });
    this.store = new EventStore(join(dir, 'outbox'));
    this.settingsFile = join(dir, 'settings.json');
    for (const entry of readSettings(this.settingsFile)) this.settings.set(entry.cameraId, entry.settings);
  }

  /** A camera's analysis settings: what shore last sent, else the defaults. */
  settingsOf(cameraId: string): CameraEventSettings {
    return this.settings.get(cameraId) ?? DEFAULT_CAMERA_EVENT_SETTINGS;
  }

  /**
   * Keeps an event and its picture on disk and sends it when the link allows. An event added again
   * with the same picture (it went on after it was sent: a later end, more classes) is offered
   * again with its new record; shore keeps the picture it has and takes the rest.
   */
  async add(event: ShipEvent, jpeg: Buffer): Promise<void> {
    this.store.put(event, jpeg);
    while (this.store.size > this.maxEvents) {
      const oldest = this.store.ordered().find((e) => e.eventId !== this.sending.id);
      if (!oldest) break;
      this.store.remove(oldest.eventId);
      this.opts.onWarning?.(`event outbox full (${this.maxEvents}): the oldest event ${oldest.eventId} was dropped unsent`);
    }
    this.pump();
  }

  /** What each camera's analysis does now: shore hears it when it changes (and when the inbox opens). */
  reportStatus(statuses: readonly CameraAnalysisStatus[]): void {
    const changed = JSON.stringify(statuses) !== JSON.stringify(this.statuses);
    this.statuses = [...statuses];
    if (!changed) return;
    this.statusTold = false;
    if (this.inbox === undefined) return this.ask();
    if (!this.idleSent) this.sendStatus();
  }

  /** The link is up: messages and bytes go out on it (sending starts once shore opens the inbox). */
  attach(link: EventsLink): void {
    this.link = link;
  }

  /** The link is gone: what was on its way is offered again on the next connection. */
  detach(): void {
    this.link = undefined;
    this.inbox = undefined;
    this.protocol = undefined;
    this.asked = false;
    this.idleSent = false;
    this.statusTold = false;
    this.sending.clear();
  }

  /**
   * Shore welcomed the hello. From link version 4 the inbox opens on demand: the ship asks for it
   * now when it has events or a status to send, or holds settings (shore sends the current ones,
   * which may have changed while the link was down); shore opens it by itself when it holds
   * settings for the ship.
   */
  welcomed(protocol: number): void {
    this.protocol = protocol;
    if (this.store.size > 0 || this.settings.size > 0 || this.statuses.length > 0) this.ask();
  }

  private get onDemand(): boolean {
    return (this.protocol ?? 0) >= INBOX_ON_DEMAND_VERSION;
  }

  /** Asks shore to open the inbox (once until it does; version 4). */
  private ask(): void {
    if (!this.link || !this.onDemand || this.inbox !== undefined || this.asked || this.closed) return;
    this.asked = true;
    this.link.sendJson({ type: 'outbox', kind: 'events' });
  }

  /** No event offered or waiting and the status told: shore may close the inbox (version 4). */
  private settle(): void {
    if (!this.onDemand || this.inbox === undefined || this.idleSent || !this.link) return;
    if (this.sending.id !== undefined || this.store.size > 0 || (!this.statusTold && this.statuses.length > 0)) return;
    this.idleSent = true;
    this.link.sendJson({ type: 'events.idle', streamId: this.inbox });
  }

  close(): void {
    this.closed = true;
    this.detach();
    if (this.scratch) rmSync(this.scratch, { recursive: true, force: true });
  }

  message(msg: ShoreMsg): void {
    if (this.closed) return;
    switch (msg.type) {
      case 'events.inbox':
        this.inbox = msg.streamId;
        this.asked = false;
        this.idleSent = false;
        this.sending.clear();
        if (!this.statusTold) this.sendStatus();
        this.pump();
        return this.settle();
      case 'events.inboxClosed':
        if (msg.streamId !== this.inbox) return;
        // Shore closed it on our `idle`: what came meanwhile goes on the next one.
        this.inbox = undefined;
        this.idleSent = false;
        this.sending.clear();
        if (this.store.size > 0 || (!this.statusTold && this.statuses.length > 0)) this.ask();
        return;
      case 'events.settings':
        if (msg.streamId !== this.inbox) return;
        this.applySettings(msg.cameras);
        return this.settle();
      case 'events.resume':
        return this.resume(msg.streamId, msg.eventId, msg.offset);
      case 'events.stored':
      case 'events.refused':
        if (msg.streamId !== this.inbox) return;
        if (this.takeOut(msg.eventId, msg.type === 'events.stored') && msg.type === 'events.stored') this.delivered++;
        if (msg.type === 'events.refused') this.opts.onWarning?.(`shore refused event ${msg.eventId}: ${msg.reason}`);
        if (this.sending.id === msg.eventId) this.sending.clear();
        this.pump();
        return this.settle();
      case 'events.held':
        // The ship's events budget is spent: the event waits, offered, for shore's resume (the link going offers it again).
        if (msg.streamId === this.inbox && this.sending.id === msg.eventId) this.sending.hold();
        return;
      case 'events.rejected':
        if (msg.streamId !== this.inbox || this.sending.id !== msg.eventId) return;
        this.sending.clear();
        this.pump();
        return this.settle();
    }
  }

  private applySettings(entries: readonly CameraEventSettingsEntry[]): void {
    const before = new Map(this.settings);
    this.settings.clear();
    for (const entry of entries) this.settings.set(entry.cameraId, entry.settings);
    try {
      writeSettings(this.settingsFile, entries);
    } catch (err) {
      // Applied now all the same; only a restart without a link would not have them.
      this.opts.onWarning?.(`event settings could not be kept on disk: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const cameraId of new Set([...before.keys(), ...this.settings.keys()])) {
      const now = this.settingsOf(cameraId);
      if (JSON.stringify(before.get(cameraId) ?? DEFAULT_CAMERA_EVENT_SETTINGS) !== JSON.stringify(now)) this.opts.onSettings?.(cameraId, now);
    }
  }

  private sendStatus(): void {
    if (this.inbox === undefined || this.statuses.length === 0) return;
    // A reason is for people and the log: cut to what the link's schema takes, so the report is never refused.
    const cameras = this.statuses.slice(0, EVENT_CAMERAS_MAX).map((c) => (c.reason !== undefined && c.reason.length > 500 ? { ...c, reason: `${c.reason.slice(0, 499)}…` } : c));
    if (!this.link) return;
    this.statusTold = true;
    this.link.sendJson({ type: 'events.status', streamId: this.inbox, cameras });
  }

  /**
   * Shore stored (or refused) an event: it leaves the outbox — unless shore stored the record
   * offered and a later one of it came meanwhile, which stays to be offered next. Answers whether
   * the outbox held it.
   */
  private takeOut(eventId: string, stored: boolean): boolean {
    const current = this.store.get(eventId);
    if (current === undefined) return false;
    if (stored && this.offered?.eventId === eventId && current !== this.offered) return true;
    return this.store.remove(eventId);
  }

  /** Offers the outbox's oldest event when nothing is on its way. */
  private pump(): void {
    if (!this.link || this.sending.id !== undefined || this.idleSent) return;
    if (this.inbox === undefined) {
      if (this.store.size > 0) this.ask();
      return;
    }
    const next = this.store.ordered()[0];
    if (!next) return;
    this.sending.start(next.eventId);
    this.offered = next;
    this.link.sendJson({ type: 'events.offer', streamId: this.inbox, event: next });
  }

  /** Shore answered an offer: the picture's bytes from `offset` on go out, in frames, below live video. */
  private resume(streamId: number, eventId: string, offset: number): void {
    if (streamId !== this.inbox || this.sending.id !== eventId || !this.link) return;
    const event = this.store.get(eventId);
    const bytes = event && this.store.readPicture(event);
    if (!bytes) {
      // The picture is gone or no longer what the record says: it cannot be sent as that event.
      this.store.remove(eventId);
      this.opts.onWarning?.(`event ${eventId}: its picture is gone or damaged on the ship; dropped`);
      this.sending.clear();
      return this.pump();
    }
    this.sending.answered();
    const link = this.link;
    sendFromOffset(bytes, offset, CHUNK_BYTES, (at, chunk) => link.sendBinary(encodeStreamFrame(BINARY_KIND.events, streamId, encodeEventChunk(at, chunk))));
  }


}

function readSettings(file: string): CameraEventSettingsEntry[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { cameras?: unknown };
    return Array.isArray(parsed.cameras) ? (parsed.cameras as CameraEventSettingsEntry[]) : [];
  } catch {
    return [];
  }
}

function writeSettings(file: string, cameras: readonly CameraEventSettingsEntry[]): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify({ cameras }));
  renameSync(tmp, file);
}
