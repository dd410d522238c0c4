import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, build, logon } from './helpers/build.ts';

describe.each(['pglite', 'postgres'] as const)('server on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({ kind });
  });
  afterAll(() => t?.close());

  it('answers /healthz with the database kind', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: kind });
  });

  it('signs in the demo user', async () => {
    const data = await logon(t.app, 'demo');
    expect(data.user.orgIds).toEqual(['blueocean', 'njzsz']);
  });
});
