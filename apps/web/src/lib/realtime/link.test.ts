import { describe, expect, it } from 'vitest';
import { signalColour } from '@ship-cctv/protocol';
import { normaliseShipStatus, toKnownLink } from './link.ts';

describe('ship link normalisation (spec §4)', () => {
  it('starts OFFLINE with signal -1', () => {
    expect(normaliseShipStatus(undefined)).toEqual({ linkType: 'OFFLINE', quality: -1 });
  });

  it('upper-cases and removes line breaks', () => {
    expect(normaliseShipStatus({ status: 'fbb\r\n', quality: 70, udpConnectionStats: { duplex: 'UP' } })).toEqual({ linkType: 'FBB', quality: 70 });
    expect(normaliseShipStatus({ status: 'four\nthg', quality: 5, udpConnectionStats: { duplex: 'NONE' } }).linkType).toBe('FOURTHG');
  });

  it('shows duplex BOTH with OFFLINE as VSAT, but not other statuses', () => {
    expect(normaliseShipStatus({ status: 'OFFLINE', quality: 40, udpConnectionStats: { duplex: 'BOTH' } }).linkType).toBe('VSAT');
    expect(normaliseShipStatus({ status: 'OFFLINE', quality: 40, udpConnectionStats: { duplex: 'UP' } }).linkType).toBe('OFFLINE');
    expect(normaliseShipStatus({ status: 'FBB', quality: 40, udpConnectionStats: { duplex: 'BOTH' } }).linkType).toBe('FBB');
  });

  it('maps unknown link names to UNKNOWN for the icon', () => {
    expect(toKnownLink('IRIDIUM1')).toBe('IRIDIUM1');
    expect(toKnownLink('LORA')).toBe('UNKNOWN');
  });
});

describe('signal colour (spec §4)', () => {
  it.each([
    [100, 'green'],
    [85, 'green'],
    [84, 'lightGreen'],
    [60, 'lightGreen'],
    [59, 'yellow'],
    [40, 'yellow'],
    [39, 'orange'],
    [30, 'orange'],
    [29, 'red'],
    [0, 'red'],
    [-1, 'white'],
    [101, 'white'],
    [Number.NaN, 'white'],
  ] as const)('quality %s is %s', (quality, colour) => {
    expect(signalColour(quality)).toBe(colour);
  });
});
