/**
 * The event outbox across link outages and agent restarts: every event the analysis hands over
 * reaches shore once — none lost while the link is down or the agent restarts mid-picture, none
 * stored twice when an acknowledgement is lost with the link.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentMessage, BINARY_KIND, type ShipEvent, checkAgentMessage, decodeEventChunk, decodeStreamFrame } from '@ship-cctv/protocol';
import { ShipEvents } from '../../src/events/outbox/index.ts';

const INBOX = 7;

function makeEvent(i: number, bytes = 12_000 + i * 7): { event: ShipEvent; jpeg: Buffer } {
  const jpeg = Buffer.alloc(bytes, i % 251);
  jpeg.writeUInt32BE(i, 0);
  const start = 1_800_000_000_000 + i * 10_000;
  return {
    jpeg,
    event: {
      eventId: `S1-C01-1-${String(i).padStart(6, '0')}`,
      cameraId: 'S1-C01-1',
      start,
      end: start + 4_000,
      classes: [{ class: 'person', score: 0.8 }],
      picture: { bytes: jpeg.length, width: 640, height: 360, sha256: createHash('sha256').update(jpeg).digest('hex'), time: start + 1_000 },
      recording: { from: start - 5_000, to: start + 9_000 },
    },
  };
}

/**
 * Shore's end as the protocol describes it: it keeps what it received of each picture (across the
 * ship's reconnections), asks for the rest, stores a whole picture once and answers `stored`.
 * `deliver` false keeps messages from reaching the ship (an acknowledgement lost with the link).
 */
class FakeShore {
  readonly partial = new Map<string, Buffer>();
  readonly stored = new Map<string, Buffer>();
  /** Times each event was stored (a second store would be a duplicate). */
  readonly stores = new Map<string, number>();
  offers = 0;
  pictureBytes = 0;
  private offered: ShipEvent | undefined;
  deliver = true;
  /** The `stored` of this event is lost with the link (nothing reaches the ship after it). */
  loseStoredOf: string | undefined;
  /** Frames to let through before the link "breaks" (undefined: all). */
  framesLeft: number | undefined;

  constructor(private readonly ship: () => ShipEvents | undefined) {}

  json(m: AgentMessage): void {
    if (m.type !== 'events.offer') return;
    this.offers++;
    const { event } = m;
    if (this.stored.has(event.eventId)) return this.answer({ type: 'events.stored', streamId: INBOX, eventId: event.eventId });
    this.offered = event;
    this.answer({ type: 'events.resume', streamId: INBOX, eventId: event.eventId, offset: this.partial.get(event.eventId)?.length ?? 0 });
  }

  binary(frame: Uint8Array): void {
    if (this.framesLeft !== undefined) {
      if (this.framesLeft <= 0) return;
      this.framesLeft--;
    }
    const decoded = decodeStreamFrame(frame);
    expect(decoded?.kind).toBe(BINARY_KIND.events);
    const chunk = decodeEventChunk(decoded!.payload)!;
    const event = this.offered!;
    const held = this.partial.get(event.eventId) ?? Buffer.alloc(0);
    expect(chunk.offset).toBe(held.length);
    this.pictureBytes += chunk.bytes.length;
    const now = Buffer.concat([held, chunk.bytes]);
    this.partial.set(event.eventId, now);
    if (now.length === event.picture.bytes) {
      this.stored.set(event.eventId, now);
      this.stores.set(event.eventId, (this.stores.get(event.eventId) ?? 0) + 1);
      this.partial.delete(event.eventId);
      this.answer({ type: 'events.stored', streamId: INBOX, eventId: event.eventId });
    }
  }

  private answer(msg: Parameters<ShipEvents['message']>[0]): void {
    if (msg.type === 'events.stored' && msg.eventId === this.loseStoredOf) this.deliver = false;
    if (this.deliver) this.ship()?.message(msg);
  }
}

describe('the event outbox', () => {
  let dataDir: string;
  let ship: ShipEvents | undefined;
  let shore: FakeShore;

  const connect = (s: ShipEvents) => {
    s.attach({ sendJson: (m) => shore.json(m), sendBinary: (f) => shore.binary(f) });
    s.message({ type: 'events.inbox', streamId: INBOX });
  };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'event-outbox-'));
    shore = new FakeShore(() => ship);
  });
  afterEach(() => {
    ship?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses none and sends none twice across an outage mid-picture, a lost acknowledgement and an agent restart', async () => {
    const all = Array.from({ length: 12 }, (_, i) => makeEvent(i));
    ship = new ShipEvents({ dataDir });
    // Found while the link is down.
    for (const { event, jpeg } of all.slice(0, 4)) await ship.add(event, jpeg);
    expect(ship.store.size).toBe(4);

    // The link comes: two events cross whole, the third breaks after one frame.
    shore.framesLeft = 2 + 2 + 1;
    connect(ship);
    expect(shore.stored.size).toBe(2);
    expect(shore.partial.get(all[2]!.event.eventId)?.length).toBeGreaterThan(0);
    ship.detach();

    // More found during the outage; then the agent restarts (a new process on the same disk).
    for (const { event, jpeg } of all.slice(4, 8)) await ship.add(event, jpeg);
    ship.close();
    ship = new ShipEvents({ dataDir });
    expect(ship.store.size).toBe(6);

    // Back: the third resumes where shore stands; the fourth's `stored` is lost with the link.
    shore.framesLeft = undefined;
    shore.loseStoredOf = all[3]!.event.eventId;
    connect(ship);
    expect(shore.stored.has(all[3]!.event.eventId)).toBe(true);
    expect(ship.store.has(all[3]!.event.eventId)).toBe(true);
    ship.detach();
    shore.loseStoredOf = undefined;
    shore.deliver = true;

    // Another restart, more events, and the link for good.
    ship.close();
    ship = new ShipEvents({ dataDir });
    for (const { event, jpeg } of all.slice(8)) await ship.add(event, jpeg);
    connect(ship);

    expect(ship.store.size).toBe(0);
    expect([...shore.stored.keys()].sort()).toEqual(all.map((e) => e.event.eventId).sort());
    for (const { event, jpeg } of all) expect(shore.stored.get(event.eventId)?.equals(jpeg)).toBe(true);
    expect([...shore.stores.values()].every((n) => n === 1)).toBe(true);
    // Each picture's bytes crossed once: the broken one resumed, the unacknowledged one was answered `stored` on its offer.
    expect(shore.pictureBytes).toBe(all.reduce((n, e) => n + e.jpeg.length, 0));
    expect(readdirSync(join(dataDir, 'events', 'outbox'))).toEqual([]);
  });

  it('offers an event again when it went on after it was sent, with its picture kept: after shore stored it, while it was on its way, and across a restart', async () => {
    const { event, jpeg } = makeEvent(1);
    const later = { ...event, end: event.end + 20_000, classes: [{ class: 'person' as const, score: 0.9 }], recording: { ...event.recording, to: event.recording.to + 20_000 } };
    ship = new ShipEvents({ dataDir });
    const offers: ShipEvent[] = [];
    ship.attach({ sendJson: (m) => void (m.type === 'events.offer' && offers.push(m.event)), sendBinary: () => undefined });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    await ship.add(event, jpeg);
    expect(offers.map((e) => e.end)).toEqual([event.end]);
    // It went on while its picture was on its way: shore's `stored` is of the first record, so the later one is offered next.
    await ship.add(later, jpeg);
    expect(() => ship!.store.put({ ...later, picture: { ...later.picture, sha256: '0'.repeat(64) } }, jpeg)).toThrow(/does not match|does not change/);
    ship.message({ type: 'events.stored', streamId: INBOX, eventId: event.eventId });
    expect(offers.map((e) => e.end)).toEqual([event.end, later.end]);
    expect(ship.store.get(event.eventId)).toEqual(later);
    ship.message({ type: 'events.stored', streamId: INBOX, eventId: event.eventId });
    expect(ship.store.size).toBe(0);
    ship.detach();

    // After shore stored it, across an agent restart: offered again (shore answers `stored` at once, no picture bytes).
    const again = { ...later, end: later.end + 5_000 };
    await ship.add(again, jpeg);
    ship.close();
    ship = new ShipEvents({ dataDir });
    expect(ship.store.get(event.eventId)).toEqual(again);
    shore.stored.set(event.eventId, jpeg);
    connect(ship);
    expect(shore.offers).toBe(1);
    expect(shore.pictureBytes).toBe(0);
    expect(ship.store.size).toBe(0);
  });

  it('sends the oldest event first and keeps a picture whose record was never written out of the outbox', async () => {
    ship = new ShipEvents({ dataDir });
    const late = makeEvent(5);
    const early = makeEvent(1);
    await ship.add(late.event, late.jpeg);
    await ship.add(early.event, early.jpeg);
    ship.close();
    // The agent stopped between a picture and its record.
    writeFileSync(join(dataDir, 'events', 'outbox', 'S1-C01-1-000009.jpg'), Buffer.alloc(100));
    ship = new ShipEvents({ dataDir });
    expect(ship.store.ordered().map((e) => e.eventId)).toEqual([early.event.eventId, late.event.eventId]);
    expect(readdirSync(join(dataDir, 'events', 'outbox')).sort()).toEqual(
      [`${early.event.eventId}.jpg`, `${early.event.eventId}.json`, `${late.event.eventId}.jpg`, `${late.event.eventId}.json`].sort(),
    );
    const order: string[] = [];
    ship.attach({ sendJson: (m) => m.type === 'events.offer' && order.push(m.event.eventId), sendBinary: () => undefined });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    expect(order).toEqual([early.event.eventId]);
  });

  it('keeps an event shore holds for its budget in flight past the answer time, and sends it on shore’s resume', async () => {
    ship = new ShipEvents({ dataDir, answerTimeoutMs: 50 });
    const { event, jpeg } = makeEvent(1);
    const other = makeEvent(2);
    await ship.add(event, jpeg);
    await ship.add(other.event, other.jpeg);
    const offers: string[] = [];
    let bytes = 0;
    ship.attach({ sendJson: (m) => m.type === 'events.offer' && offers.push(m.event.eventId), sendBinary: (f) => (bytes += decodeEventChunk(decodeStreamFrame(f)!.payload)!.bytes.length) });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    ship.message({ type: 'events.held', streamId: INBOX, eventId: event.eventId, reason: 'the ship’s events budget is used up' });
    // Many answer times later: not offered again, the next not offered, both still on disk.
    await new Promise((r) => setTimeout(r, 300));
    expect(offers).toEqual([event.eventId]);
    expect(ship.store.size).toBe(2);
    // The budget allows: shore asks for the picture; the answer timer runs again from then.
    ship.message({ type: 'events.resume', streamId: INBOX, eventId: event.eventId, offset: 0 });
    expect(bytes).toBe(jpeg.length);
    ship.message({ type: 'events.stored', streamId: INBOX, eventId: event.eventId });
    expect(offers).toEqual([event.eventId, other.event.eventId]);
    expect(ship.store.has(event.eventId)).toBe(false);
  });

  it('refuses a record that does not describe its picture, naming what is wrong', async () => {
    ship = new ShipEvents({ dataDir });
    const { event, jpeg } = makeEvent(1);
    await expect(ship.add({ ...event, picture: { ...event.picture, bytes: jpeg.length + 1 } }, jpeg)).rejects.toThrow(/the record says/);
    await expect(ship.add(event, Buffer.concat([jpeg.subarray(1), Buffer.from([1])]))).rejects.toThrow(/SHA-256/);
    await expect(ship.add({ ...event, classes: [] }, jpeg)).rejects.toThrow(/\/classes/);
    expect(ship.store.size).toBe(0);
  });

  it('keeps the cameras\u2019 settings from shore across a restart and tells the analysis of a change', () => {
    const changes: string[] = [];
    ship = new ShipEvents({ dataDir, onSettings: (cameraId, s) => changes.push(`${cameraId}:${s.minScore}`) });
    ship.attach({ sendJson: () => undefined, sendBinary: () => undefined });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    const settings = { enabled: true, schedule: { kind: 'always' as const }, classes: ['person' as const], minScore: 0.7, sensitivity: 40, zones: [], masks: [] };
    ship.message({ type: 'events.settings', streamId: INBOX, cameras: [{ cameraId: 'S1-C01-1', settings }] });
    expect(changes).toEqual(['S1-C01-1:0.7']);
    ship.message({ type: 'events.settings', streamId: INBOX, cameras: [{ cameraId: 'S1-C01-1', settings }] });
    expect(changes).toEqual(['S1-C01-1:0.7']);
    ship.close();
    ship = new ShipEvents({ dataDir });
    expect(ship.settingsOf('S1-C01-1').minScore).toBe(0.7);
    expect(ship.settingsOf('S1-C02-1').minScore).toBe(0.5);
  });

  it('takes settings it cannot keep on disk with a warning, and nothing from shore once closed', () => {
    const warnings: string[] = [];
    const changes: string[] = [];
    // No data folder: the outbox keeps its files in a scratch folder it removes when closed.
    const scratch = new ShipEvents({ onWarning: (w) => warnings.push(w), onSettings: (cameraId) => changes.push(cameraId) });
    scratch.attach({ sendJson: () => undefined, sendBinary: () => undefined });
    scratch.message({ type: 'events.inbox', streamId: INBOX });
    const settings = { enabled: true, schedule: { kind: 'always' as const }, classes: ['person' as const], minScore: 0.7, sensitivity: 40, zones: [], masks: [] };
    scratch.close();
    // What a link not yet gone still delivers after the agent stopped.
    expect(() => scratch.message({ type: 'events.settings', streamId: INBOX, cameras: [{ cameraId: 'S1-C01-1', settings }] })).not.toThrow();
    expect(changes).toEqual([]);

    // A disk that refuses the write: the settings apply, the ship is told why they were not kept.
    ship = new ShipEvents({ dataDir, onWarning: (w) => warnings.push(w), onSettings: (cameraId) => changes.push(cameraId) });
    ship.attach({ sendJson: () => undefined, sendBinary: () => undefined });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    rmSync(join(dataDir, 'events'), { recursive: true, force: true });
    ship.message({ type: 'events.settings', streamId: INBOX, cameras: [{ cameraId: 'S1-C01-1', settings }] });
    expect(changes).toEqual(['S1-C01-1']);
    expect(ship.settingsOf('S1-C01-1').minScore).toBe(0.7);
    expect(warnings.some((w) => w.startsWith('event settings could not be kept on disk'))).toBe(true);
  });

  it('reports the analysis status when the inbox opens and when it changes', () => {
    const sent: AgentMessage[] = [];
    ship = new ShipEvents({ dataDir });
    ship.reportStatus([{ cameraId: 'S1-C01-1', state: 'modelFailed', reason: 'weights missing' }]);
    ship.attach({ sendJson: (m) => sent.push(m), sendBinary: () => undefined });
    ship.message({ type: 'events.inbox', streamId: INBOX });
    ship.reportStatus([{ cameraId: 'S1-C01-1', state: 'modelFailed', reason: 'weights missing' }]);
    ship.reportStatus([{ cameraId: 'S1-C01-1', state: 'running' }]);
    expect(sent.filter((m) => m.type === 'events.status').map((m) => (m.type === 'events.status' ? m.cameras[0]?.state : ''))).toEqual(['modelFailed', 'running']);
    // A long reason (a stack trace) is cut to what shore's schema takes, not refused with the whole report.
    ship.reportStatus([{ cameraId: 'S1-C01-1', state: 'modelFailed', reason: 'x'.repeat(5_000) }]);
    const last = sent.at(-1);
    expect(last?.type === 'events.status' && last.cameras[0]?.reason?.length).toBe(500);
    expect(checkAgentMessage(JSON.parse(JSON.stringify(last))).ok).toBe(true);
  });
});

describe('the event outbox with an inbox on demand (link version 4)', () => {
  it('asks for the inbox when it has a status or an event, tells it, says idle, and after the closing asks again for what came meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-outbox-demand-'));
    const sent: AgentMessage[] = [];
    const s = new ShipEvents({ dataDir: dir });
    try {
      s.attach({ sendJson: (m) => sent.push(m), sendBinary: () => undefined });
      s.welcomed(4);
      // Nothing to send and no settings held: no inbox asked for.
      expect(sent).toEqual([]);
      s.reportStatus([{ cameraId: 'S1-C01-1', state: 'running' }]);
      expect(sent).toEqual([{ type: 'outbox', kind: 'events' }]);
      s.message({ type: 'events.inbox', streamId: 11 });
      expect(sent.slice(1).map((m) => m.type)).toEqual(['events.status', 'events.idle']);

      // Told after the idle: it waits for the closing, then goes on a new inbox with the event.
      s.reportStatus([{ cameraId: 'S1-C01-1', state: 'idle' }]);
      const { event, jpeg } = makeEvent(1);
      await s.add(event, jpeg);
      expect(sent).toHaveLength(3);
      s.message({ type: 'events.inboxClosed', streamId: 11 });
      expect(sent.at(-1)).toEqual({ type: 'outbox', kind: 'events' });
      s.message({ type: 'events.inbox', streamId: 12 });
      expect(sent.slice(4).map((m) => [m.type, 'streamId' in m ? m.streamId : undefined])).toEqual([
        ['events.status', 12],
        ['events.offer', 12],
      ]);
      s.message({ type: 'events.stored', streamId: 12, eventId: event.eventId });
      expect(sent.at(-1)).toEqual({ type: 'events.idle', streamId: 12 });
      for (const m of sent) expect(checkAgentMessage(m).ok).toBe(true);
    } finally {
      s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
