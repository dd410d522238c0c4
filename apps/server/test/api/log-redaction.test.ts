import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '@ship-cctv/protocol';
import { redactUrl } from '../../src/core/http/log-redaction.ts';
import { type TestApp, build, logon } from '../helpers/build.ts';

describe('tokens never reach the logs', () => {
  let t: TestApp;
  let lines = '';
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines += chunk.toString();
        done();
      },
    });
    t = await build({ logger: { level: 'info', stream } });
  });
  afterAll(async () => t?.close());

  it('redacts the token of /sys/valid/token and of the media socket in request logs', async () => {
    const { token } = await logon(t.app, 'demo');
    await t.app.inject({ url: `/api/v1/sys/valid/token?token=${encodeURIComponent(token)}` });
    await t.app.inject({ url: `${PATHS.media}?token=${encodeURIComponent(token)}&channel=S1001-C1` });
    expect(lines).toContain('/api/v1/sys/valid/token?token=[redacted]');
    expect(lines).toContain(`${PATHS.media}?token=[redacted]&channel=S1001-C1`);
    expect(lines).not.toContain(token);
  });

  it('keeps other parameters and redacts every credential name', () => {
    expect(redactUrl('/a?x=1&TOKEN=abc&passcode=p&cas-jwt=j&y=2')).toBe('/a?x=1&TOKEN=[redacted]&passcode=[redacted]&cas-jwt=[redacted]&y=2');
    expect(redactUrl('/a')).toBe('/a');
    expect(redactUrl('/a?%ZZ=1')).toBe('/a?%ZZ=1');
  });
});
