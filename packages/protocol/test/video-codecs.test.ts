import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { EncodeSpec, codecLabel, viewerDecoders } from '../src/index.ts';

describe('what a viewer decodes', () => {
  it('keeps the prefixes it knows, ignores the others, and always has H.264', () => {
    expect([...viewerDecoders(['av01', 'vp09', 'hvc1', 'something.new'])].sort()).toEqual(['av01', 'avc1', 'hvc1']);
    // A play without the list (a page from before it): H.264 only.
    expect([...viewerDecoders(undefined)]).toEqual(['avc1']);
    expect([...viewerDecoders([])]).toEqual(['avc1']);
    // Prefixes are exact: a full codec string or another case is not a prefix.
    expect(viewerDecoders(['av01.0.04M.08', 'AV01']).has('av01')).toBe(false);
  });

  it('names the codec a stream plays from its mime', () => {
    expect(codecLabel('video/mp4; codecs="avc1.42c01e"')).toBe('H.264');
    expect(codecLabel('video/mp4; codecs="avc1.64001f,mp4a.40.2"')).toBe('H.264');
    expect(codecLabel('video/mp4; codecs="av01.0.04M.08"')).toBe('AV1');
    expect(codecLabel('video/mp4; codecs="hvc1.1.6.L93.B0"')).toBe('H.265');
    expect(codecLabel('video/mp4; codecs="vp09.00.10.08"')).toBe('vp09');
  });
});

describe('EncodeSpec', () => {
  it('takes h264 and av1, and nothing else', () => {
    const spec = { width: 320, height: 180, frameRate: 3, bitrateKbps: 32 };
    expect(Value.Check(EncodeSpec, { ...spec, codec: 'h264' })).toBe(true);
    expect(Value.Check(EncodeSpec, { ...spec, codec: 'av1' })).toBe(true);
    expect(Value.Check(EncodeSpec, { ...spec, codec: 'hevc' })).toBe(false);
    expect(Value.Check(EncodeSpec, spec)).toBe(false);
  });
});
