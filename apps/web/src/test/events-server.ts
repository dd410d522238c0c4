import { vi } from 'vitest';
import { DEFAULT_CAMERA_EVENT_SETTINGS, type CameraEventSettings, type EventInfo, type OrgEventSettings, type PictureInfo } from '@ship-cctv/protocol';
import { camera, channel, org, ship } from '../mobile/test-fleet.ts';

/** The fleet the events tests see: one organisation, ship S1 with a bridge camera and two deck cameras. */
export const EVENTS_TREE = { orgShipTreeNodes: [org('blueocean', '蓝海航运', [ship('S1', '蓝海之星', 'BLUE OCEAN STAR')])] };
export const EVENTS_CHANNELS = [channel('C1', 'Bridge', [camera('C1-1', 'Bridge')]), channel('C2', 'Deck', [camera('C2-1', 'Port'), camera('C2-2', 'Starboard')])];

const BASE = Date.UTC(2026, 10, 29, 2, 0, 0);

export function eventOf(n: number, change: Partial<EventInfo> = {}): EventInfo {
  const start = BASE + n * 60_000;
  return {
    id: `S1-C1-1-evt-${String(n).padStart(4, '0')}`,
    shipId: 'S1',
    shipName: '蓝海之星',
    cameraId: 'C1-1',
    cameraName: 'Bridge',
    start,
    end: start + 12_000,
    classes: [
      { class: 'motion', score: 1 },
      { class: 'person', score: 0.915 },
    ],
    zone: 'Gangway',
    pictureWidth: 640,
    pictureHeight: 360,
    recordingFrom: start - 10_000,
    recordingTo: start + 22_000,
    receivedAt: start + 3_000,
    ...change,
  };
}

export interface EventsServerCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

function envelope(data: unknown, status = 200) {
  return new Response(JSON.stringify({ code: status, message: status === 200 ? 'SUCCESS' : 'FAILED', data }), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * A shore server for the events screens, behind a stubbed fetch: it keeps events, acknowledges
 * and deletes them and keeps settings as the real one does (filters by ship, camera, class, time
 * and acknowledged; pages newest first), and records every call.
 */
export function serveEvents(initial: EventInfo[], opts: { user?: string } = {}) {
  let events = [...initial];
  const calls: EventsServerCall[] = [];
  const cameraSettings = new Map<string, CameraEventSettings>();
  const pictures: PictureInfo[] = [];
  let orgSettings: OrgEventSettings = { notifyClasses: ['person', 'boat'] };
  const ack = (e: EventInfo, at: number): EventInfo => (e.acknowledgedAt === undefined ? { ...e, acknowledgedBy: opts.user ?? 'demo', acknowledgedAt: at } : e);

  const handle = (method: string, path: string, query: URLSearchParams, body: unknown): Response | undefined => {
    if (path.endsWith('/getOrgShipTreeUnion')) return envelope(EVENTS_TREE);
    if (path.includes('/ship/waitTime')) return envelope({ waitTime: 8 });
    if (path.includes('/getChannel/')) return envelope(EVENTS_CHANNELS);
    if (path.includes('/snapshot/complexQuery/')) {
      const cameraId = (body as { cameraId?: string } | undefined)?.cameraId;
      const mine = pictures.filter((p) => !cameraId || p.cameraId === cameraId);
      return envelope({ page: 1, size: 1, total: mine.length, pictures: mine.slice(-1) });
    }
    const snap = /^\/cctvv3-server\/v3\/snapshot\/requestPro\/([^/]+)\/([^/]+)\/([^/]+)\/\d+\/live$/.exec(path);
    if (snap && method === 'POST') {
      const [, shipId = '', channelId = '', cameraId = ''] = snap;
      const pictureId = `P${pictures.length + 1}`;
      // Stored on shore at once (the real one arrives over the link seconds later).
      pictures.push({ id: pictureId, orgId: 'blueocean', shipId, shipName: '蓝海之星', channelId, cameraId, takenAt: BASE, origin: 'manual', taskId: null, bytes: 1000, width: 640, height: 360, storedAt: BASE });
      return envelope({ pictureId, shipId, cameraId, width: 640, height: 360 });
    }
    if (path === '/api/v1/cctv/events' && method === 'GET') {
      const page = Number(query.get('page') ?? 1);
      const size = Number(query.get('size') ?? 50);
      const from = query.get('from');
      const to = query.get('to');
      const matching = events
        .filter((e) => !query.get('shipId') || e.shipId === query.get('shipId'))
        .filter((e) => !query.get('cameraId') || e.cameraId === query.get('cameraId'))
        .filter((e) => !query.get('class') || e.classes.some((c) => c.class === query.get('class')))
        .filter((e) => !from || e.start >= Number(from))
        .filter((e) => !to || e.start < Number(to))
        .filter((e) => !query.get('acknowledged') || (e.acknowledgedAt !== undefined) === (query.get('acknowledged') === 'true'))
        .sort((a, b) => b.start - a.start);
      return envelope({ page, size, total: matching.length, events: matching.slice((page - 1) * size, page * size) });
    }
    if (path === '/api/v1/cctv/events/unacknowledged') {
      const counts = new Map<string, number>();
      for (const e of events) if (e.acknowledgedAt === undefined) counts.set(e.shipId, (counts.get(e.shipId) ?? 0) + 1);
      return envelope({ ships: [...counts].map(([shipId, count]) => ({ shipId, count })) });
    }
    if (path === '/api/v1/cctv/events/acknowledge' && method === 'POST') {
      const ids = new Set((body as { ids: string[] }).ids);
      const before = events.filter((e) => ids.has(e.id) && e.acknowledgedAt === undefined).length;
      events = events.map((e) => (ids.has(e.id) ? ack(e, BASE + 3_600_000) : e));
      return envelope({ acknowledged: before });
    }
    const one = /^\/api\/v1\/cctv\/events\/([^/]+)(\/acknowledge)?$/.exec(path);
    if (one?.[1] && one[2] && method === 'POST') {
      const id = decodeURIComponent(one[1]);
      events = events.map((e) => (e.id === id ? ack(e, BASE + 3_600_000) : e));
      return envelope(events.find((e) => e.id === id));
    }
    if (one?.[1] && !one[2] && method === 'DELETE') {
      events = events.filter((e) => e.id !== decodeURIComponent(one[1] ?? ''));
      return envelope({ deleted: true });
    }
    const cam = /^\/api\/v1\/cctv\/events\/settings\/camera\/([^/]+)$/.exec(path);
    if (cam?.[1]) {
      const id = decodeURIComponent(cam[1]);
      if (method === 'PUT') cameraSettings.set(id, body as CameraEventSettings);
      return envelope({ ...(cameraSettings.get(id) ?? DEFAULT_CAMERA_EVENT_SETTINGS), status: { cameraId: id, state: 'running' } });
    }
    if (/^\/api\/v1\/cctv\/events\/settings\/org\/[^/]+$/.test(path)) {
      if (method === 'PUT') orgSettings = body as OrgEventSettings;
      return envelope(orgSettings);
    }
    return undefined;
  };

  const fetch = vi.fn((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, path: url.pathname, query: url.searchParams, body });
    const answer = handle(method, url.pathname, url.searchParams, body);
    // Anything else never answers (the screens under test do not need it).
    return answer ? Promise.resolve(answer) : new Promise<Response>(() => undefined);
  });
  vi.stubGlobal('fetch', fetch);
  return {
    calls,
    events: () => events,
    cameraSettings,
    orgSettings: () => orgSettings,
    /** The calls of one method to a path (exact, or starting with it when it ends in `*`). */
    callsTo(method: string, path: string) {
      return calls.filter((c) => c.method === method && (path.endsWith('*') ? c.path.startsWith(path.slice(0, -1)) : c.path === path));
    },
  };
}
