import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, TOKEN_HEADER, type UserInfo } from '@ship-cctv/protocol';
import { type TestApp, build, logon } from '../helpers/build.ts';

/** A ship of another organisation (NJZSZ's) and one that does not exist, as duty (Blue Ocean) asks. */
const FOREIGN = 'S3001';
const UNKNOWN = 'S9999';
const camera = (ship: string) => `${ship}-C01-1`;
const channel = (ship: string) => `${ship}-C01`;

/** Every REST call that names a ship (or a camera of it), as [method, url, body]. */
const callsFor = (ship: string): [string, string, object | undefined][] => {
  const now = Date.now();
  return [
    ['GET', `/api/v1/cctv/monitor/getChannel/${ship}`, undefined],
    ['POST', `/cctvv3-server/v3/snapshot/requestPro/${ship}/${channel(ship)}/${camera(ship)}/720/live`, undefined],
    ['POST', `/api/v1/cctv-server/v3/getPicList/${ship}`, { cameraId: camera(ship), from: now - 3_600_000, to: now }],
    ['POST', `/api/v1/cctv-server/v3/fetchPic/${ship}/some-picture-1`, undefined],
    ['POST', '/api/v1/cctv/snapshot/complexQuery/1/20', { shipId: ship }],
    ['GET', `/cctvv3-server/v3/vod/query/${ship}/${camera(ship)}/${now - 3_600_000}/${now}`, undefined],
    ['GET', `/api/v1/cctv/ptz/${ship}/${camera(ship)}/presets`, undefined],
    ['POST', `/api/v1/cctv/ptz/${ship}/${camera(ship)}/move`, { pan: 1, tilt: 0, zoom: 0 }],
    ['POST', `/api/v1/cctv/stills/${camera(ship)}`, { templateId: 720 }],
    ['POST', '/api/v1/cctv/record/complexQuery/1/20', { shipId: ship }],
    ['GET', `/api/v1/cctv/databudget/findByShipId?shipId=${ship}`, undefined],
  ];
};

describe('who sees what: ships outside the user\'s organisations, roles', () => {
  let t: TestApp;
  let duty: string;

  // Building the demo fleet's server takes a while on a loaded machine.
  beforeAll(async () => {
    t = await build();
    duty = (await logon(t.app, 'duty')).token;
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

describe("a ship the user may not see answers exactly as an unknown ship", () => {
  const ask = async ([method, url, body]: [string, string, object | undefined]) => {
    const res = await t.app.inject({ method: method as 'GET', url, headers: { [TOKEN_HEADER]: duty }, ...(body ? { payload: body } : {}) });
    return { status: res.statusCode, body: res.json<{ code: number; message: string; data: unknown }>() };
  };

  it('answers the same status and message for another organisation’s ship and an unknown one, on every route', async () => {
    const foreign = callsFor(FOREIGN);
    const unknown = callsFor(UNKNOWN);
    for (let i = 0; i < foreign.length; i++) {
      const a = await ask(foreign[i] as [string, string, object | undefined]);
      const b = await ask(unknown[i] as [string, string, object | undefined]);
      const route = foreign[i]?.[1];
      expect(a, route).toEqual(b);
      expect(a, route).toEqual({ status: 403, body: { code: 403, message: MESSAGES.forbidden, data: null } });
    }
  });
});

describe('the demo has an operator who is not a manager', () => {
  it('signs in viewer (demo-pass) as an operator of Blue Ocean, and the managers as managers', async () => {
    const viewer = await logon(t.app, 'viewer');
    expect(viewer.user).toMatchObject<Partial<UserInfo>>({ username: 'viewer', role: 'operator', orgIds: ['blueocean'] });
    expect((await logon(t.app, 'demo')).user.role).toBe('manager');
    expect((await logon(t.app, 'duty')).user.role).toBe('manager');
  });

  it('lets the operator watch the ships but not change a manager’s settings', async () => {
    const { token } = await logon(t.app, 'viewer');
    const channels = await t.app.inject({ url: '/api/v1/cctv/monitor/getChannel/S1001', headers: { [TOKEN_HEADER]: token } });
    expect(channels.statusCode, channels.body).toBe(200);
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cctv/playbackautoshutdown/update',
      headers: { [TOKEN_HEADER]: token },
      payload: { orgId: 'blueocean', enabled: true, minutes: 5, countdownSeconds: 30 },
    });
    expect(change.statusCode, change.body).toBe(403);
  });
});
});
