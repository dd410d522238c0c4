import { describe, expect, it } from 'vitest';
import { mediaSocketUrl } from './media-url.ts';

describe('mediaSocketUrl', () => {
  it('uses ws on http and wss on https, on the page host', () => {
    expect(mediaSocketUrl('/cctvv3-server/v3/media', { protocol: 'http:', host: '127.0.0.1:8080' })).toBe('ws://127.0.0.1:8080/cctvv3-server/v3/media');
    expect(mediaSocketUrl('/cctvv3-server/v3/media', { protocol: 'https:', host: 'cctv.example' })).toBe('wss://cctv.example/cctvv3-server/v3/media');
  });

  it('keeps an absolute socket URL from the config', () => {
    expect(mediaSocketUrl('wss://media.example/m', { protocol: 'http:', host: 'x' })).toBe('wss://media.example/m');
  });
});
