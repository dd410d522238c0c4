import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_POLICY_DEFAULTS, POLICY_LINKS, TOKEN_HEADER, type LinkPolicyList } from '@ship-cctv/protocol';
import { memberships } from '../../src/core/db/schema.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const BASE = '/api/v1/cctv/linkPolicy';

function expectOk<T>(res: LightMyRequestResponse): T {
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: T }>().data;
}

const policyOf = (list: LinkPolicyList, linkType: string) => list.policies.find((p) => p.linkType === linkType);

describe('link-type definition policies (issue 19 item 4)', () => {
  let t: TestApp;
  const tokens = { demo: '', njzsz: '', tanker: '', viewer: '' };
  const req = (method: 'GET' | 'PUT' | 'DELETE', url: string, token: string | undefined, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });

  beforeAll(async () => {
    t = await build();
    await addUser(t.app.database.db, { id: 'u-tanker-lp', username: 'tanker-lp', orgIds: ['blueocean-tankers'] });
    // A member who is not a manager: may read, may not change.
    await addUser(t.app.database.db, { id: 'u-viewer-lp', username: 'viewer-lp', orgIds: [] });
    await t.app.database.db.insert(memberships).values({ userId: 'u-viewer-lp', orgId: 'blueocean', role: 'operator' });
    tokens.demo = (await logon(t.app, 'demo')).token;
    tokens.njzsz = (await logon(t.app, 'njzsz')).token;
    tokens.tanker = (await logon(t.app, 'tanker-lp')).token;
    tokens.viewer = (await logon(t.app, 'viewer-lp')).token;
  });
  afterAll(() => t?.close());

  it('answers the defaults for every link type of an organisation that changed nothing', async () => {
    const list = expectOk<LinkPolicyList>(await req('GET', `${BASE}/njzsz`, tokens.njzsz));
    expect(list.policies.map((p) => p.linkType)).toEqual([...POLICY_LINKS]);
    for (const p of list.policies) expect(p).toEqual({ linkType: p.linkType, ...LINK_POLICY_DEFAULTS[p.linkType], custom: false, source: 'default' });
    // njzsz's user manages it.
    expect(list.canEdit).toBe(true);
    // FBB and Iridium: the satellite tier in every grid, the standard definition only full screen.
    expect(policyOf(list, 'FBB')).toMatchObject({ manyCells: 'satellite', fewCells: 'satellite', fullScreen: 'standard' });
    expect(policyOf(list, 'IRIDIUM')).toMatchObject({ manyCells: 'satellite', fewCells: 'satellite', fullScreen: 'standard' });
    expect(policyOf(list, 'VSAT')).toMatchObject({ manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best' });
  });

  it('lets a manager change a link type, which the organisations below follow, until they set their own; DELETE goes back', async () => {
    const fbb = { manyCells: 'lowest', fewCells: 'lowest', fullScreen: 'lowest', stills: true, stillsEverySeconds: 20 } as const;
    const changed = expectOk<LinkPolicyList>(await req('PUT', `${BASE}/blueocean/FBB`, tokens.demo, fbb));
    // Left out, the budget policy stays the one followed before (FBB's default: pictures only).
    expect(policyOf(changed, 'FBB')).toEqual({ linkType: 'FBB', ...fbb, budgetPolicy: 'stills', custom: true, source: 'own' });
    expect(policyOf(changed, 'VSAT')).toMatchObject({ custom: false, source: 'default' });
    // The tankers (below blueocean) follow it, and say whose it is; their manager reads it.
    const tankers = expectOk<LinkPolicyList>(await req('GET', `${BASE}/blueocean-tankers`, tokens.tanker));
    expect(policyOf(tankers, 'FBB')).toEqual({ linkType: 'FBB', ...fbb, budgetPolicy: 'stills', custom: true, source: 'inherited', inheritedFrom: { orgId: 'blueocean', displayName: 'Blue Ocean Shipping' } });
    expect(tankers.canEdit).toBe(true);
    // Their own wins over the one above.
    const own = { ...fbb, fewCells: 'standard', fullScreen: 'best', stills: false, budgetPolicy: 'block' } as const;
    const tankersOwn = policyOf(expectOk<LinkPolicyList>(await req('PUT', `${BASE}/blueocean-tankers/FBB`, tokens.tanker, own)), 'FBB');
    expect(tankersOwn).toMatchObject({ ...own, source: 'own' });
    expect(tankersOwn?.inheritedFrom).toBeUndefined();
    expect(policyOf(expectOk<LinkPolicyList>(await req('GET', `${BASE}/blueocean`, tokens.demo)), 'FBB')).toMatchObject(fbb);
    // Dropping theirs: the one above again; dropping blueocean's: the defaults.
    expect(policyOf(expectOk<LinkPolicyList>(await req('DELETE', `${BASE}/blueocean-tankers/FBB`, tokens.tanker)), 'FBB')).toMatchObject({ ...fbb, source: 'inherited' });
    const reset = expectOk<LinkPolicyList>(await req('DELETE', `${BASE}/blueocean/FBB`, tokens.demo));
    expect(policyOf(reset, 'FBB')).toEqual({ linkType: 'FBB', ...LINK_POLICY_DEFAULTS.FBB, custom: false, source: 'default' });
    // Dropping a policy the organisation does not have changes nothing and is no error.
    expect(policyOf(expectOk<LinkPolicyList>(await req('DELETE', `${BASE}/blueocean/FBB`, tokens.demo)), 'FBB')).toMatchObject({ source: 'default' });
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const good = { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', stills: false, stillsEverySeconds: 10 };
    const bad = async (url: string, token: string | undefined, body: object, status: number, message?: RegExp) => {
      const res = await req('PUT', url, token, body);
      expect(res.statusCode, res.body).toBe(status);
      if (message) expect(res.json<{ message: string }>().message).toMatch(message);
    };
    await bad(`${BASE}/blueocean/VSAT`, tokens.demo, { ...good, fullScreen: 'lowest' }, 400, /bigger view/);
    await bad(`${BASE}/blueocean/VSAT`, tokens.demo, { ...good, manyCells: 'huge' }, 400);
    await bad(`${BASE}/blueocean/VSAT`, tokens.demo, { ...good, stillsEverySeconds: 0 }, 400);
    await bad(`${BASE}/blueocean/VSAT`, tokens.demo, { ...good, budgetPolicy: 'throttle' }, 400, /budgetPolicy/);
    await bad(`${BASE}/blueocean/VSAT`, tokens.demo, { ...good, budgetPolicy: 'link' }, 400, /budgetPolicy/);
    await bad(`${BASE}/blueocean/LORA`, tokens.demo, good, 400);
    await bad(`${BASE}/blueocean/VSAT`, tokens.viewer, good, 403);
    await bad(`${BASE}/blueocean/VSAT`, tokens.tanker, good, 403);
    await bad(`${BASE}/blueocean/VSAT`, tokens.njzsz, good, 403);
    await bad(`${BASE}/nowhere/VSAT`, tokens.demo, good, 404);
    await bad(`${BASE}/blueocean/VSAT`, undefined, good, 401);
    // The non-manager still reads; nothing changed.
    const list = expectOk<LinkPolicyList>(await req('GET', `${BASE}/blueocean`, tokens.viewer));
    expect(policyOf(list, 'VSAT')).toEqual({ linkType: 'VSAT', ...LINK_POLICY_DEFAULTS.VSAT, custom: false, source: 'default' });
    // …and is told it may not change them (the screen shows them read-only).
    expect(list.canEdit).toBe(false);
    expect((await req('DELETE', `${BASE}/blueocean/VSAT`, tokens.viewer)).statusCode).toBe(403);
    // A manager of the tankers may change theirs (not the organisation above them: 403 above).
    expect(expectOk<LinkPolicyList>(await req('GET', `${BASE}/blueocean-tankers`, tokens.tanker)).canEdit).toBe(true);
    expect((await req('GET', `${BASE}/blueocean`, tokens.njzsz)).statusCode).toBe(403);
  });
});
