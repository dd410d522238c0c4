import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  AGENT_HEADERS,
  AGENT_LINK_MIN_VERSION,
  AGENT_LINK_VERSION,
  type AgentMessage,
  BACKFILL_TRANSCODE_CAPABILITY,
  BINARY_KIND,
  type DataBudgetUpdate,
  type RecordQueryPage,
  PATHS,
  type ShipSegmentFile,
  type ShoreMessage,
  checkShoreMessage,
  encodeStreamFrame,
} from '@ship-cctv/protocol';
import { wholeFragments } from '@ship-cctv/media';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { loadClip } from '../playback/helpers.ts';
import { EventRepo, type EventRow } from '../../src/modules/events/repo.ts';

const SHIP = 'S1001';
const CAMERA = 'S1001-C01-1';
const OLD_SHIP = 'S3001';
const OLD_CAMERA = 'S3001-C01-1';
const S = 1_000;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * A ship's agent reduced to backfill: it dials the real agent link and says hello listing
 * `capabilities`; asked, it lists its files overlapping the span and sends one as binary frames of
 * kind backfill and `backfill.sent`, as the real agent does. Asked for a definition, it says it
 * transcoded into it (the bytes stay the file's: what shore records of them is measured from them).
 */
class FileShip {
  readonly received: ShoreMessage[] = [];
  private constructor(
    private readonly ws: WebSocket,
    private readonly files: Map<string, { meta: ShipSegmentFile; bytes: Uint8Array }>,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const checked = checkShoreMessage(JSON.parse(String(data)));
      if (!checked.ok) throw new Error(`shore sent a message the agent would refuse: ${checked.error}`);
      this.received.push(checked.message);
      this.handle(checked.message);
    });
  }

  static async connect(port: number, shipId: string, key: string, capabilities: string[], files: { meta: ShipSegmentFile; bytes: Uint8Array }[]): Promise<FileShip> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${PATHS.agentLink}`, {
      headers: { [AGENT_HEADERS.shipId]: shipId, [AGENT_HEADERS.authorization]: `Ship ${key}`, [AGENT_HEADERS.protocol]: `${AGENT_LINK_MIN_VERSION}-${AGENT_LINK_VERSION}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const ship = new FileShip(ws, new Map(files.map((f) => [f.meta.file, f])));
    ship.send({ type: 'hello', protocol: { min: AGENT_LINK_MIN_VERSION, max: AGENT_LINK_VERSION }, agentVersion: 'files', capabilities, link: { linkType: 'VSAT', quality: 80, duplex: 'BOTH' }, cameras: [] });
    return ship;
  }

  of<T extends ShoreMessage['type']>(type: T): Extract<ShoreMessage, { type: T }>[] {
    return this.received.filter((m): m is Extract<ShoreMessage, { type: T }> => m.type === type);
  }

  close(): void {
    this.ws.close();
  }

  private send(msg: AgentMessage): void {
    this.ws.send(JSON.stringify(msg));
  }

  private handle(msg: ShoreMessage): void {
    if (msg.type === 'backfill.list') {
      const segments = [...this.files.values()].map((f) => f.meta).filter((f) => f.end > msg.start && f.start < msg.end);
      this.send({ type: 'backfill.segments', requestId: msg.requestId, cameraId: msg.cameraId, segments });
    } else if (msg.type === 'backfill.fetch') {
      const file = this.files.get(msg.file);
      if (!file) return this.send({ type: 'backfill.failed', streamId: msg.streamId, message: 'no such file' });
      for (let at = 0; at < file.bytes.length; at += 8_192) this.ws.send(encodeStreamFrame(BINARY_KIND.backfill, msg.streamId, file.bytes.subarray(at, at + 8_192)), { binary: true });
      this.send({ type: 'backfill.sent', streamId: msg.streamId, bytes: file.bytes.length, ...(msg.encode ? { encoded: msg.encode } : {}) });
    }
  }
}

describe('backfill on shore', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let clip: Uint8Array;
  let clipSize: { width: number; height: number };
  const ships: FileShip[] = [];
  /** A recording of the camera over [start, end) with one segment, as the live recorder leaves one. */
  const recorded = async (cameraId: string, shipId: string, start: number, end: number, endedUnwatched = false) => {
    const id = randomUUID();
    await t.app.recordings.createRecording({ id, cameraId, shipId, recordConfigId: `rc-${cameraId}`, templateId: 6, startMs: start });
    await t.app.recordings.addSegment({ id: `${id}-0`, recordingId: id, seq: 0, startMs: start, endMs: end, bytes: 10, file: `${id}/x.mp4`, mime: 'video/mp4' });
    await t.app.recordings.closeRecording(id, { endedUnwatched });
    return id;
  };
  /** Ship files of 12 s each from `from`: whole fMP4 files (made by ffmpeg), each with a `free` box of its own length, so they differ. */
  const shipFiles = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => {
      const free = new Uint8Array(8 + i);
      new DataView(free.buffer).setUint32(0, free.length);
      free.set([0x66, 0x72, 0x65, 0x65], 4);
      const bytes = Uint8Array.from(Buffer.concat([clip, free]));
      return { meta: { file: `run-${String(i).padStart(5, '0')}.mp4`, start: from + i * 12 * S, end: from + (i + 1) * 12 * S, bytes: bytes.length }, bytes };
    });

  beforeAll(async () => {
    const c = await loadClip(2);
    clip = Uint8Array.from(Buffer.concat([c.init, ...c.fragments]));
    const media = wholeFragments(clip)!;
    clipSize = { width: media.init.width, height: media.init.height };
    // Passes on demand (runShip) only: the periodic one would race the test's own.
    t = await build({ backfill: { settings: { everyMs: 3_600_000, afterOnlineMs: 3_600_000, minGapMs: 2_000 } }, events: { eventVideoDelayMs: 0 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    port = address.port;
    token = (await logon(t.app, 'demo')).token;
  });
  beforeEach(async () => {
    for (const s of ships.splice(0)) s.close();
    await expect.poll(() => t.app.agents.connectedShips().length, { timeout: 5_000 }).toBe(0);
  });
  afterAll(async () => {
    for (const s of ships.splice(0)) s.close();
    await t?.app.close();
    await t?.close();
  });

  const connect = async (shipId: string, capabilities: string[], files: { meta: ShipSegmentFile; bytes: Uint8Array }[]) => {
    const ship = await FileShip.connect(port, shipId, await t.app.agentKeys.issue(shipId), capabilities, files);
    ships.push(ship);
    await expect.poll(() => t.app.agents.get(shipId)?.ready, { timeout: 5_000 }).toBe(true);
    return ship;
  };

  it('refills a gap left by a recording cut short with the ship’s files, as they are, marked backfilled', async () => {
    const t0 = Date.now() - 3_600_000;
    const before = await recorded(CAMERA, SHIP, t0, t0 + 10 * S);
    await recorded(CAMERA, SHIP, t0 + 40 * S, t0 + 50 * S);
    const files = shipFiles(t0 + 9 * S, 3);
    const ship = await connect(SHIP, ['backfill'], files);

    const results = await t.app.backfill.runShip(SHIP);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ outcome: 'filled', gap: { start: t0 + 10 * S, end: t0 + 40 * S }, files: 3, covered: { start: t0 + 9 * S, end: t0 + 45 * S } });
    expect(results[0]!.receivedBytes).toBe(files.reduce((n, f) => n + f.bytes.length, 0));
    expect(ship.of('backfill.list')).toMatchObject([{ cameraId: CAMERA, start: t0 + 10 * S, end: t0 + 40 * S }]);
    // An agent that does not transcode is asked for no definition: it sends what it has.
    expect(ship.of('backfill.fetch').map((m) => [m.file, m.fileStart, m.encode])).toEqual(files.map((f) => [f.meta.file, f.meta.start, undefined]));
    expect(results[0]).toMatchObject({ choice: 'recorded', asked: null, transcodedFiles: 0 });

    const rows = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/50', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA, start: t0, end: t0 + 60 * S } });
    const records = rows.json<{ data: { records: { id: string; backfilled: boolean; start: number; end: number }[] } }>().data.records;
    const refilled = records.filter((r) => r.backfilled);
    expect(refilled).toHaveLength(1);
    expect(records.find((r) => r.id === before)?.backfilled).toBe(false);
    const segments = await t.app.recordings.segments(refilled[0]!.id);
    expect(segments.map((s) => [s.startMs, s.endMs])).toEqual(files.map((f) => [f.meta.start, f.meta.end]));
    for (const [i, s] of segments.entries()) expect(sha(await readFile(join(t.app.recorder.root, s.file)))).toBe(sha(files[i]!.bytes));
    expect(segments.every((s) => s.mime.startsWith('video/mp4; codecs="avc1'))).toBe(true);

    // Whole now: the next look finds nothing to ask for.
    expect(await t.app.backfill.runShip(SHIP)).toEqual([]);
    expect(ship.of('backfill.list')).toHaveLength(1);
  });

  it('leaves the time after a recording whose viewers left, and a camera whose configuration has backfill off', async () => {
    const t0 = Date.now() - 2 * 3_600_000;
    await recorded('S1001-C02-1', SHIP, t0, t0 + 10 * S, true);
    await recorded('S1001-C02-1', SHIP, t0 + 40 * S, t0 + 50 * S);
    await recorded('S1001-C03-1', SHIP, t0, t0 + 10 * S);
    await recorded('S1001-C03-1', SHIP, t0 + 40 * S, t0 + 50 * S);
    const config = (await t.app.recordings.config('rc-S1001-C03-1'))!;
    await t.app.recordings.saveConfig({ ...config, backfill: false });
    const ship = await connect(SHIP, ['backfill'], shipFiles(t0, 5));
    expect(await t.app.backfill.runShip(SHIP)).toEqual([]);
    expect(ship.of('backfill.list')).toEqual([]);
  });

  it('stops at the ship’s backfill cap for the day and says the rest waits for it', async () => {
    const t0 = Date.now() - 3 * 3_600_000;
    await recorded('S1001-C04-1', SHIP, t0, t0 + 10 * S);
    await recorded('S1001-C04-1', SHIP, t0 + 40 * S, t0 + 50 * S);
    const files = shipFiles(t0 + 9 * S, 3);
    const orgId = (await t.app.recordings.cameraInfo('S1001-C04-1'))!.orgId;
    const setCap = async (dayMb: number) => {
      const body: DataBudgetUpdate = { orgId, shipId: SHIP, policy: 'link', caps: { live: {}, playback: {}, pictures: {}, backfill: { dayMb } } };
      const set = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/update', headers: { 'cas-jwt': token }, payload: body });
      expect(set.statusCode).toBe(200);
    };
    // What the ship spent on backfill today already (the tests before), then room for one file and a half more.
    await t.app.flushBudgets();
    await setCap(1_000);
    const used = 1e9 - (await t.app.budgets.backfillLeft(SHIP, null));
    await setCap((used + files[0]!.bytes.length * 1.5) / 1e6);
    try {
      await connect(SHIP, ['backfill'], files);
      const results = await t.app.backfill.runShip(SHIP);
      expect(results.map((r) => [r.cameraId, r.outcome, r.files])).toEqual([['S1001-C04-1', 'budget', 1]]);
      expect(t.app.backfill.pendingBackfill(SHIP, 'S1001-C04-1')).toEqual([{ start: t0 + 21 * S, end: t0 + 40 * S, state: 'pending', waitingFor: 'budget' }]);
      // The recording query names the cause of that gap: backfill pending.
      const q = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/50', headers: { 'cas-jwt': token }, payload: { cameraId: 'S1001-C04-1', start: t0, end: t0 + 60 * S } });
      const gaps = q.json<{ data: { gaps: { cameraId: string; gaps: { start: number; end: number; cause: string }[] }[] } }>().data.gaps;
      expect(gaps.find((g) => g.cameraId === 'S1001-C04-1')?.gaps).toContainEqual(expect.objectContaining({ start: t0 + 21 * S, end: t0 + 40 * S, cause: 'backfillPending' }));
    } finally {
      await t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/delete', headers: { 'cas-jwt': token }, payload: { orgId, shipId: SHIP } });
    }
  });

  it('has a switch per organisation (managers change it, below inherits it) and per camera, in the OpenAPI document', async () => {
    const call = async (method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>, tok = token) =>
      t.app.inject({ method, url: `/api/v1/cctv/record/backfill${url}`, headers: { 'cas-jwt': tok }, ...(payload === undefined ? {} : { payload }) });
    const orgId = (await t.app.recordings.cameraInfo(CAMERA))!.orgId;
    expect((await call('GET', `/org/${orgId}`)).json()).toMatchObject({ data: { orgId, enabled: true, fromOrgId: null, canEdit: true } });
    expect((await call('PUT', `/org/${orgId}`, { enabled: 'perhaps' })).statusCode).toBe(400);
    const other = (await logon(t.app, 'njzsz')).token;
    expect((await call('PUT', `/org/${orgId}`, { enabled: false }, other)).statusCode).toBe(403);
    expect((await call('GET', `/pending?shipId=${SHIP}&cameraId=${CAMERA}`, undefined, other)).statusCode).toBe(403);

    // Off: a gap of a camera whose own switch is on is left alone.
    const t0 = Date.now() - 5 * 3_600_000;
    await recorded('S1001-C05-1', SHIP, t0, t0 + 10 * S);
    await recorded('S1001-C05-1', SHIP, t0 + 40 * S, t0 + 50 * S);
    const off = await call('PUT', `/org/${orgId}`, { enabled: false });
    expect(off.json()).toMatchObject({ data: { orgId, enabled: false, fromOrgId: orgId } });
    const ship = await connect(SHIP, ['backfill'], shipFiles(t0 + 9 * S, 3));
    expect(await t.app.backfill.runShip(SHIP)).toEqual([]);
    expect(ship.of('backfill.list')).toEqual([]);
    // On again: refilled.
    await call('PUT', `/org/${orgId}`, { enabled: true });
    // (The camera the cap stopped earlier is looked at again too; this ship has nothing for it.)
    expect((await t.app.backfill.runShip(SHIP)).filter((r) => r.cameraId === 'S1001-C05-1').map((r) => r.outcome)).toEqual(['filled']);
    expect((await call('GET', `/pending?shipId=${SHIP}&cameraId=S1001-C05-1`)).json()).toMatchObject({ data: [] });

    // A camera's own switch is its recording configuration's `backfill`, kept when a change leaves it out.
    const config = (await t.app.recordings.config('rc-S1001-C05-1'))!;
    const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/v1/cctv/record/config/${config.id}`, headers: { 'cas-jwt': token }, payload });
    expect((await put({ cameraId: config.cameraId, mode: 'continuous', backfill: false })).json()).toMatchObject({ data: { backfill: false } });
    expect((await put({ cameraId: config.cameraId, mode: 'continuous' })).json()).toMatchObject({ data: { backfill: false } });
    expect((await put({ cameraId: config.cameraId, mode: 'continuous', backfill: 'no' })).statusCode).toBe(400);
    await put({ cameraId: config.cameraId, mode: 'continuous', backfill: true });

    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, unknown>; components?: unknown }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/cctv/record/backfill/org/{orgId}', '/api/v1/cctv/record/backfill/pending']));
    expect(JSON.stringify(doc.paths['/api/v1/cctv/record/config/{id}'])).toContain('"backfill"');
  });

  it('asks a ship that transcodes for the shore recording’s definition, or the lower one its organisation or camera chooses, and records what it holds', async () => {
    const call = async (method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url: `/api/v1/cctv/record/backfill${url}`, headers: { 'cas-jwt': token }, ...(payload === undefined ? {} : { payload }) });
    const config = (await t.app.recordings.config(`rc-${CAMERA}`))!;
    const putConfig = (payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/cctv/record/config/${config.id}`, headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA, mode: 'continuous', ...payload } });
    /** A gap of 30 s in the camera's shore recording (recorded at template 6, 640×360) `hoursAgo`, refilled; the result and what the ship was asked. */
    const refill = async (hoursAgo: number) => {
      const t0 = Date.now() - hoursAgo * 3_600_000;
      await recorded(CAMERA, SHIP, t0, t0 + 10 * S);
      await recorded(CAMERA, SHIP, t0 + 40 * S, t0 + 50 * S);
      const ship = await connect(SHIP, ['backfill', BACKFILL_TRANSCODE_CAPABILITY], shipFiles(t0 + 9 * S, 3));
      // (The hours between this gap's recordings and the next ones are a gap too, for which the ship has nothing.)
      const results = (await t.app.backfill.runShip(SHIP)).filter((r) => r.cameraId === CAMERA && r.gap.start === t0 + 10 * S);
      ship.close();
      await expect.poll(() => t.app.agents.get(SHIP), { timeout: 5_000 }).toBeUndefined();
      ships.splice(ships.indexOf(ship), 1);
      expect(results).toHaveLength(1);
      return { result: results[0]!, asked: ship.of('backfill.fetch').map((m) => m.encode) };
    };
    const orgId = (await t.app.recordings.cameraInfo(CAMERA))!.orgId;

    // By default: the definition the shore recorded in (template 6), asked of every file.
    const recorded6 = await refill(7);
    const standard = { width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' };
    expect(recorded6.result).toMatchObject({ outcome: 'filled', choice: 'recorded', asked: standard, files: 3, transcodedFiles: 3 });
    expect(recorded6.asked).toEqual([standard, standard, standard]);

    // The organisation chooses `lowest` (inherited below it): the ship's smallest above the satellite tier, template 5.
    const lowest = await call('PUT', `/org/${orgId}`, { definition: 'lowest' });
    expect(lowest.json()).toMatchObject({ data: { orgId, enabled: true, definition: 'lowest', definitionFromOrgId: orgId } });
    expect((await call('GET', '/org/blueocean-tankers')).json()).toMatchObject({ data: { definition: 'lowest', definitionFromOrgId: orgId, enabled: true } });
    const low = await refill(8);
    expect(low.result).toMatchObject({ outcome: 'filled', choice: 'lowest', asked: { width: 320, height: 180, frameRate: 5, bitrateKbps: 150, codec: 'h264' }, transcodedFiles: 3 });
    // The index says what the recording holds: the template it was asked in, measured size, transcoded.
    const rows = await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/200', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA } });
    const mine = rows.json<{ data: RecordQueryPage }>().data.records.find((r) => r.id === low.result.recordingId);
    expect(mine).toMatchObject({ backfilled: true, templateId: 5, definition: { width: clipSize.width, height: clipSize.height, transcoded: true } });
    expect(mine?.definition?.bitrateKbps).toBeGreaterThan(0);
    expect(mine?.definition?.frameRate).toBeGreaterThan(0);

    // The camera's own choice wins: `ship` asks for no definition (the ship's files as they are) …
    expect((await putConfig({ backfillDefinition: 'ship' })).json()).toMatchObject({ data: { backfillDefinition: 'ship' } });
    // … and a change that leaves it out keeps it.
    expect((await putConfig({ backfill: true })).json()).toMatchObject({ data: { backfillDefinition: 'ship' } });
    const own = await refill(9);
    expect(own.result).toMatchObject({ outcome: 'filled', choice: 'ship', asked: null, transcodedFiles: 0 });
    expect(own.asked).toEqual([undefined, undefined, undefined]);
    const copied = (await t.app.inject({ method: 'POST', url: '/api/v1/cctv/record/complexQuery/1/200', headers: { 'cas-jwt': token }, payload: { cameraId: CAMERA } }))
      .json<{ data: RecordQueryPage }>()
      .data.records.find((r) => r.id === own.result.recordingId);
    expect(copied).toMatchObject({ templateId: 6, definition: { transcoded: false } });

    // `satellite`: the satellite tier's H.264 model (the AV1 one is for live viewers only).
    await putConfig({ backfillDefinition: 'satellite' });
    const satellite = await refill(10);
    expect(satellite.result).toMatchObject({ choice: 'satellite', asked: { width: 320, height: 180, frameRate: 3, bitrateKbps: 16, codec: 'h264' } });

    // Back to the organisation's choice, and the organisation back to the default.
    expect((await putConfig({ backfillDefinition: null })).json()).toMatchObject({ data: { backfillDefinition: null } });
    await call('PUT', `/org/${orgId}`, { definition: 'recorded' });
  });

  it('refuses a definition it does not know, naming the field', async () => {
    const orgId = (await t.app.recordings.cameraInfo(CAMERA))!.orgId;
    const put = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url, headers: { 'cas-jwt': token }, payload });
    const bad = await put(`/api/v1/cctv/record/backfill/org/${orgId}`, { definition: 'tiny' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/definition/);
    const nothing = await put(`/api/v1/cctv/record/backfill/org/${orgId}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json<{ message: string }>().message).toMatch(/body/);
    const camera = await put(`/api/v1/cctv/record/config/rc-${CAMERA}`, { cameraId: CAMERA, mode: 'continuous', backfillDefinition: 'huge' });
    expect(camera.statusCode).toBe(400);
    expect(camera.json<{ message: string }>().message).toMatch(/backfillDefinition/);
    // Nothing changed.
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/cctv/record/backfill/org/${orgId}`, headers: { 'cas-jwt': token } })).json()).toMatchObject({ data: { definition: 'recorded' } });
    expect((await t.app.recordings.config(`rc-${CAMERA}`))?.backfillDefinition).toBeNull();
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(JSON.stringify(doc.paths['/api/v1/cctv/record/backfill/org/{orgId}'])).toContain('satellite');
  });

  it('fetches the video of an event of a class its organisation’s rule names, the part not recorded on shore, and skips it once the backfill budget is spent', async () => {
    const cameraId = 'S1001-C02-1';
    const t0 = Date.now() - 8 * 3_600_000;
    const orgId = (await t.app.recordings.cameraInfo(cameraId))!.orgId;
    const rules = '/api/v1/cctv/events/settings/org/' + orgId;
    const put = (url: string, payload: object) => t.app.inject({ method: 'PUT', url, headers: { 'cas-jwt': token }, payload });
    const bad = await put(rules, { notifyClasses: ['person'], fetchVideoClasses: ['person', 'dragon'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/fetchVideoClasses\/1/);
    expect((await put(rules, { notifyClasses: ['person'], fetchVideoClasses: ['person'] })).statusCode).toBe(200);
    const repo = new EventRepo(t.app.database.db);
    let n = 0;
    /** An event as the ship's outbox leaves it on shore, then what shore does as it arrives. */
    const arrives = async (start: number, end: number, eventClass: 'person' | 'boat') => {
      const row: EventRow = {
        id: `${cameraId}-fetch-${++n}-${start}`,
        orgId,
        shipId: SHIP,
        cameraId,
        startMs: start + 5 * S,
        endMs: end - 5 * S,
        classes: [{ class: eventClass, score: 0.8 }],
        classNames: [eventClass],
        zone: null,
        pictureBytes: 100,
        pictureWidth: 640,
        pictureHeight: 360,
        pictureSha256: '0'.repeat(64),
        pictureFile: 'none.jpg',
        recordingFrom: start,
        recordingTo: end,
        acknowledgedBy: null,
        acknowledgedAt: null,
        receivedAt: new Date(),
      };
      await repo.insert(row);
      await t.app.events.arrived(row);
    };
    const resultsOf = (start: number) => t.app.backfill.results.filter((r) => r.cameraId === cameraId && r.gap.end > start && r.gap.start < start + 30 * S);
    // Shore recorded the first 10 s: the event's span after it is asked for, the camera's gaps' switch aside.
    await recorded(cameraId, SHIP, t0, t0 + 10 * S);
    // The ship's files, 12 s each, over the first two minutes.
    const ship = await connect(SHIP, ['backfill'], shipFiles(t0, 11));
    try {
      await arrives(t0 + 5 * S, t0 + 25 * S, 'person');
      await expect.poll(() => resultsOf(t0).length, { timeout: 10_000 }).toBe(1);
      expect(resultsOf(t0)[0]).toMatchObject({ outcome: 'filled', gap: { start: t0 + 10 * S, end: t0 + 25 * S }, files: 3 });
      expect(ship.of('backfill.list')).toMatchObject([{ cameraId, start: t0 + 10 * S, end: t0 + 25 * S }]);

      // A class the rule does not name: nothing asked of the ship.
      await arrives(t0 + 200 * S, t0 + 220 * S, 'boat');
      await new Promise((r) => setTimeout(r, 300));
      expect(ship.of('backfill.list')).toHaveLength(1);

      // The ship's backfill budget spent: the event's video is skipped, no file crosses.
      await t.app.flushBudgets();
      const setCap = async (dayMb: number) => {
        const body: DataBudgetUpdate = { orgId, shipId: SHIP, policy: 'link', caps: { live: {}, playback: {}, pictures: {}, backfill: { dayMb } } };
        expect((await t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/update', headers: { 'cas-jwt': token }, payload: body })).statusCode).toBe(200);
      };
      await setCap(1_000);
      await setCap((1e9 - (await t.app.budgets.backfillLeft(SHIP, null)) + 10) / 1e6);
      const fetched = ship.of('backfill.fetch').length;
      await arrives(t0 + 100 * S, t0 + 120 * S, 'person');
      await expect.poll(() => resultsOf(t0 + 100 * S).length, { timeout: 10_000 }).toBe(1);
      expect(resultsOf(t0 + 100 * S)[0]).toMatchObject({ outcome: 'budget', files: 0 });
      expect(ship.of('backfill.fetch')).toHaveLength(fetched);
    } finally {
      await t.app.inject({ method: 'POST', url: '/api/v1/cctv/databudget/delete', headers: { 'cas-jwt': token }, payload: { orgId, shipId: SHIP } });
      await put(rules, { notifyClasses: ['person', 'boat'] });
    }
  });

  it('never asks an agent that does not list backfill (an older one), which goes on working', async () => {
    const t0 = Date.now() - 4 * 3_600_000;
    await recorded(OLD_CAMERA, OLD_SHIP, t0, t0 + 10 * S);
    await recorded(OLD_CAMERA, OLD_SHIP, t0 + 40 * S, t0 + 50 * S);
    const old = await connect(OLD_SHIP, ['live', 'playback', 'pictures'], []);
    expect(t.app.backfill.shipsWithBackfill()).not.toContain(OLD_SHIP);
    const results = await t.app.backfill.runShip(OLD_SHIP);
    expect(results.map((r) => r.outcome)).toEqual(['unsupported']);
    expect(old.received.filter((m) => m.type.startsWith('backfill.'))).toEqual([]);
    expect(t.app.agents.get(OLD_SHIP)?.ready).toBe(true);
  });
});
