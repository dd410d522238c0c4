/** Basic and Digest answers to a camera's challenges. */
import { describe, expect, it } from 'vitest';
import { Authenticator, parseChallenges } from '../../../src/media/rtsp/auth.ts';

const params = (header: string) => Object.fromEntries(header.replace(/^Digest /, '').split(/,\s*/).map((p) => {
  const eq = p.indexOf('=');
  return [p.slice(0, eq), p.slice(eq + 1).replace(/^"|"$/g, '')];
}));

describe('RTSP authentication', () => {
  it('answers RFC 2617’s own Digest example (qop=auth) with its response', () => {
    const auth = new Authenticator({ username: 'Mufasa', password: 'Circle Of Life' }, () => '0a4f113b');
    const challenges = parseChallenges(['Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"']);
    expect(auth.accept(challenges)).toBe(true);
    const h = params(auth.header('GET', '/dir/index.html') as string);
    expect(h).toMatchObject({ username: 'Mufasa', realm: 'testrealm@host.com', uri: '/dir/index.html', qop: 'auth', nc: '00000001', cnonce: '0a4f113b', response: '6629fae49393a05397450978507c4ef1', opaque: '5ccc069c403ebaf9f0171e9517f40e41' });
    // The nonce's next use counts on.
    expect(params(auth.header('GET', '/dir/index.html') as string).nc).toBe('00000002');
  });

  it('answers a Digest challenge without qop as RFC 2069 does (cameras’ usual kind)', () => {
    const auth = new Authenticator({ username: 'admin', password: 'secret' });
    auth.accept(parseChallenges(['Digest realm="IP Camera(21690)", nonce="a1b2c3", stale="FALSE"']));
    const h = params(auth.header('DESCRIBE', 'rtsp://10.0.0.5/stream1') as string);
    // MD5(MD5("admin:IP Camera(21690):secret"):a1b2c3:MD5("DESCRIBE:rtsp://10.0.0.5/stream1"))
    expect(h.response).toBe('20824fa04d3a94bb4e426b3390ab5ec3');
    expect(h.qop).toBeUndefined();
  });

  it('prefers Digest to Basic when a camera offers both, in one header or two', () => {
    const twoHeaders = parseChallenges(['Basic realm="cam"', 'Digest realm="cam", nonce="n1"']);
    const oneHeader = parseChallenges(['Basic realm="cam", Digest realm="cam", nonce="n1", algorithm=MD5']);
    for (const challenges of [twoHeaders, oneHeader]) {
      expect(challenges.map((c) => c.scheme)).toEqual(['basic', 'digest']);
      const auth = new Authenticator({ username: 'u', password: 'p' });
      auth.accept(challenges);
      expect(auth.header('OPTIONS', 'rtsp://cam/')).toMatch(/^Digest username="u", realm="cam", nonce="n1"/);
    }
  });

  it('sends Basic when that is all a camera asks for', () => {
    const auth = new Authenticator({ username: 'admin', password: 'pa:ss' });
    expect(auth.header('OPTIONS', 'rtsp://cam/')).toBeUndefined();
    auth.accept(parseChallenges(['Basic realm="cam"']));
    expect(auth.header('OPTIONS', 'rtsp://cam/')).toBe(`Basic ${Buffer.from('admin:pa:ss').toString('base64')}`);
  });

  it('does not retry a refused password, but does retry a stale nonce', () => {
    const auth = new Authenticator({ username: 'u', password: 'wrong' });
    expect(auth.accept(parseChallenges(['Digest realm="r", nonce="n1"']))).toBe(true);
    expect(auth.accept(parseChallenges(['Digest realm="r", nonce="n1"']))).toBe(false);
    expect(auth.accept(parseChallenges(['Digest realm="r", nonce="n2", stale=true']))).toBe(true);
    expect(new Authenticator({ username: 'u', password: 'p' }).accept(parseChallenges(['Bearer realm="x"']))).toBe(false);
  });

  it('speaks SHA-256 Digest (RFC 7616)', () => {
    const auth = new Authenticator({ username: 'Mufasa', password: 'Circle of Life' }, () => 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ');
    auth.accept(parseChallenges(['Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"']));
    const h = params(auth.header('GET', '/dir/index.html') as string);
    // RFC 7616 3.9.1's example.
    expect(h.response).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
    expect(h.algorithm).toBe('SHA-256');
  });
});
