import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_HEADER, type ChannelSearchResult } from '@ship-cctv/protocol';
import { searchChannels } from '../../src/modules/fleet/channel-search.ts';
import { loadAccess } from '../../src/core/orgs/access.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';
import { addUser } from '../helpers/users.ts';

const url = (orgId: string, name?: string) =>
  `/api/v1/cctv/monitor/searchChannel/${encodeURIComponent(orgId)}${name === undefined ? '' : `?name=${encodeURIComponent(name)}`}`;

describe.each(['pglite', 'postgres'] as const)('channel search on %s', (kind) => {
  let app: TestApp;
  const tokens = { demo: '', njzsz: '', tanker: '' };
  const get = (path: string, token?: string) => app.app.inject({ method: 'GET', url: path, headers: token === undefined ? {} : { [TOKEN_HEADER]: token } });
  const search = async (orgId: string, name: string, token = tokens.demo): Promise<ChannelSearchResult> => {
    const res = await get(url(orgId, name), token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: ChannelSearchResult }>().data;
  };

  beforeAll(async () => {
    app = await build({ kind });
    await addUser(app.app.database.db, { id: 'u-tanker', username: 'tanker', orgIds: ['blueocean-tankers'] });
    tokens.demo = (await logon(app.app, 'demo')).token;
    tokens.njzsz = (await logon(app.app, 'njzsz')).token;
    tokens.tanker = (await logon(app.app, 'tanker')).token;
  });
  afterAll(() => app?.close());

  it('checks the sign-in, the organisation and the text', async () => {
    expect((await get(url('blueocean', 'bridge'))).statusCode).toBe(401);
    expect((await get(url('blueocean', 'bridge'), tokens.njzsz)).statusCode).toBe(403);
    expect((await get(url('blueocean', 'bridge'), tokens.tanker)).statusCode).toBe(403);
    expect((await get(url('nope', 'bridge'), tokens.demo)).statusCode).toBe(404);
    expect((await get(url('blueocean'), tokens.demo)).statusCode).toBe(400);
    expect((await get(url('blueocean', ''), tokens.demo)).statusCode).toBe(400);
    const blank = await get(url('blueocean', '   '), tokens.demo);
    expect(blank.statusCode).toBe(400);
    expect(blank.json<{ message: string }>().message).toBe('The search name is empty');
  });

  it("finds channels by name, case-insensitively, across the organisation's sub-organisations, in tree order", async () => {
    const r = await search('blueocean', 'PUMP');
    expect(r).toEqual({ orgId: 'blueocean', name: 'PUMP', truncated: false, matches: [{ shipId: 'S2001', channelId: 'S2001-C03', channelName: 'Pump Room', cameraIds: ['S2001-C03-1'] }] });
    const bridges = await search('blueocean', ' bridge ');
    expect(bridges.name).toBe('bridge');
    expect(bridges.matches.map((m) => m.channelId)).toEqual(['S1001-C01', 'S1002-C01', 'S1003-C01', 'S2001-C01', 'S2002-C01']);
    // The sub-organisation alone, for its own member.
    expect((await search('blueocean-tankers', 'bridge', tokens.tanker)).matches.map((m) => m.shipId)).toEqual(['S2001', 'S2002']);
    // Another organisation's channels never show.
    expect((await search('njzsz', 'bridge', tokens.njzsz)).matches.map((m) => m.shipId)).toEqual(['S3001', 'S3002']);
  });

  it("finds a channel by a camera's name and says which cameras matched; blocked channels stay hidden", async () => {
    const r = await search('blueocean', 'starboard');
    expect(r.matches).toEqual([{ shipId: 'S1002', channelId: 'S1002-C02', channelName: 'Main Deck', cameraIds: ['S1002-C02-2'] }]);
    // S1001's "Crew Mess" has block = 1.
    expect((await search('blueocean', 'crew mess')).matches).toEqual([]);
  });

  it('takes % and _ as text, not as patterns', async () => {
    expect((await search('blueocean', '%')).matches).toEqual([]);
    expect((await search('blueocean', 'b_idge')).matches).toEqual([]);
  });

  it('stops at the limit and says so', async () => {
    const db = app.app.database.db;
    const access = await loadAccess(db, 'u-demo');
    const limited = await searchChannels(db, access, 'blueocean', 'e', 3);
    expect(limited.matches).toHaveLength(3);
    expect(limited.truncated).toBe(true);
    expect((await searchChannels(db, access, 'blueocean', 'e', 100)).truncated).toBe(false);
  });
});
