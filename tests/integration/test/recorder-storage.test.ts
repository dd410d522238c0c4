/**
 * Retention on the ship as shore sees it: a ship recorder given too little room for the days asked
 * deletes its oldest segments and records on, and its agent's status tells shore, which keeps it with
 * the ship's status and publishes it to operators.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMessage, LinkReport, RecorderStorage, ShipStatusEntry, ShipStatusMessage } from '@ship-cctv/protocol';
import { ShipAgent } from '@ship-cctv/agent';
import { tempDir } from '../../../apps/agent/test/media/helpers.ts';
import { makeCameraFile } from '../../../apps/agent/test/recorder/helpers.ts';
import { type Shore, StatusWatcher, signIn, startShore } from './helpers/shore.ts';

const SHIP = { id: 'S1001', name: '蓝海之星' };
const CAMERA = 'S1001-RET-1';
const DAY_MS = 24 * 3_600_000;
/** Room for a few seconds of the test camera: at its rate this holds far less than the 90 days asked. */
const MAX_BYTES = 150_000;
const tmp = tempDir('recorder-storage-');

describe('retention by days and by disk on the ship, reported to shore', () => {
  let shore: Shore;
  let agent: ShipAgent;
  let watcher: StatusWatcher;
  let token: string;
  const heard: AgentMessage[] = [];
  const refused: string[] = [];
  let link: LinkReport = { linkType: 'VSAT', quality: 80, duplex: 'BOTH' };
  let linkChanged: (report: LinkReport) => void = () => undefined;

  beforeAll(async () => {
    const camera = await makeCameraFile(join(tmp.dir, 'deck-camera.mp4'));
    shore = await startShore();
    const key = await shore.app.agentKeys.issue(SHIP.id);
    token = await signIn(shore.app);
    watcher = await StatusWatcher.connect(shore.port, token);
    watcher.subscribe(`/shipStatus/${SHIP.name}`);
    shore.app.agents.events.on('message', (shipId, msg) => {
      if (shipId === SHIP.id) heard.push(msg);
    });
    agent = new ShipAgent(
      { shoreUrl: shore.url, shipId: SHIP.id, key, cameras: [{ cameraId: CAMERA, source: camera }] },
      {
        current: () => link,
        onChange: (listener) => {
          linkChanged = listener;
          return () => undefined;
        },
      },
      { recorder: { dataDir: join(tmp.dir, 'agent'), maxAgeMs: 90 * DAY_MS, maxBytes: MAX_BYTES, segments: { segmentSeconds: 1 } } },
    );
    agent.on('refused', (code, message) => refused.push(`${code}: ${message}`));
    agent.start();
  });
  afterAll(async () => {
    await agent?.stop();
    await watcher?.close();
    await shore?.close();
    tmp.remove();
  });

  it('deletes the oldest segments to stay within the bytes given, and records on', async () => {
    const index = () => {
      const recording = agent.recorder.recording(CAMERA) as { recorder?: { index: { all: readonly { file: string; start: number; end: number }[] } } } | undefined;
      if (!recording?.recorder) throw new Error('expected a segment recording');
      return recording.recorder.index;
    };
    const seen = new Map<string, number>();
    const track = () => {
      for (const s of index().all) seen.set(s.file, s.start);
      return seen.size - index().all.length;
    };
    // Three segments gone...
    await expect.poll(track, { timeout: 25_000, interval: 100 }).toBeGreaterThanOrEqual(3);
    expect(agent.recorder.totalBytes()).toBeLessThanOrEqual(MAX_BYTES);
    // ...and the recording goes on: a segment that began after the last one deleted joins the index.
    const kept = new Set(index().all.map((s) => s.file));
    const newestDeleted = Math.max(...[...seen].filter(([file]) => !kept.has(file)).map(([, start]) => start));
    const oldestKept = Math.min(...index().all.map((s) => s.start));
    expect(newestDeleted).toBeLessThan(oldestKept);
    const lastEnd = index().all.at(-1)?.end ?? 0;
    await expect.poll(() => index().all.at(-1)?.end ?? 0, { timeout: 10_000, interval: 100 }).toBeGreaterThan(lastEnd);
  });

  it('says in its status that the disk given cannot hold the days asked', async () => {
    const storage = agent.recorder.storage();
    expect(storage).toMatchObject({ keepDays: 90, short: true, allowedBytes: MAX_BYTES });
    expect(storage?.holdsDays).toBeLessThan(1);
    expect(storage?.bytesPerDay).toBeGreaterThan(MAX_BYTES);
    // Sent over the link as soon as the projection turned short, beside the link's report.
    const sent = heard.flatMap((m) => (m.type === 'link' && m.storage?.short ? [m.storage] : []));
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent[0]).toMatchObject({ keepDays: 90, short: true });
    expect(refused).toEqual([]);
  });

  it('is kept on shore with the ship status and published to operators', async () => {
    const status = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.storage?.short === true);
    expect(status).toMatchObject({ status: 'VSAT', quality: 80, udpConnectionStats: { duplex: 'BOTH' } });
    expect(status.storage).toMatchObject({ keepDays: 90, allowedBytes: MAX_BYTES } satisfies Partial<RecorderStorage>);
    const res = await shore.app.inject({ method: 'POST', url: '/api/v1/cctv-server/getShipStatus', headers: { 'cas-jwt': token }, payload: { shipIds: [SHIP.id] } });
    const [entry] = res.json<{ data: ShipStatusEntry[] }>().data;
    expect(entry?.online).toBe(true);
    expect(entry?.storage).toMatchObject({ keepDays: 90, short: true });
    // A new subscriber gets it first, with the ship's link.
    const late = await StatusWatcher.connect(shore.port, token);
    try {
      late.subscribe(`/shipStatus/${SHIP.name}`);
      const first = await late.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, () => true);
      expect(first.storage?.short).toBe(true);
    } finally {
      await late.close();
    }
  });

  it('is not repeated in every link report, and shore keeps what it last heard', async () => {
    link = { ...link, quality: 60 };
    linkChanged(link);
    // The ship's link changed: its report carries the link only (the storage did not change)...
    await expect.poll(() => heard.some((m) => m.type === 'link' && m.quality === 60), { timeout: 10_000 }).toBe(true);
    expect(heard.find((m) => m.type === 'link' && m.quality === 60)).not.toHaveProperty('storage');
    // ...and the status operators get still says the disk cannot hold the days asked.
    const status = await watcher.waitFor<ShipStatusMessage>(`/shipStatus/${SHIP.name}`, (m) => m.quality === 60);
    expect(status.storage).toMatchObject({ keepDays: 90, short: true });
  });
});
