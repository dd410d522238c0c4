import { describe, expect, it } from 'vitest';
import type { ShipLinkBytes } from '@ship-cctv/protocol';
import { formatBytes, formatKbps, openShips, shipIdsByOrg, toKbps, uplinkUsage } from './link-usage.ts';

const zero = { control: 0, live: 0, playback: 0, pictures: 0, talk: 0, backfill: 0, events: 0 };

function answer(shipId: string, up: Partial<typeof zero>, upRate: Partial<typeof zero> | null, connected = true): ShipLinkBytes {
  return { shipId, shipName: `name-${shipId}`, connected, up: { ...zero, ...up }, down: zero, upRate: upRate && { ...zero, ...upRate }, downRate: upRate && zero };
}

const cell = (shipId: string, orgId = 'blueocean') => ({ shipId, shipDisplayName: `SHIP ${shipId}`, orgId, cameraId: `${shipId}-C01-1` });

describe('what the open cells cost the ship links', () => {
  it('lists each ship of the open cells once, in cell order, grouped by organisation for the requests', () => {
    const ships = openShips([cell('S2'), cell('S1'), cell('S2'), cell('S3', 'tankers')]);
    expect(ships.map((s) => s.shipId)).toEqual(['S2', 'S1', 'S3']);
    expect([...shipIdsByOrg(ships)]).toEqual([
      ['blueocean', ['S2', 'S1']],
      ['tankers', ['S3']],
    ]);
  });

  it('counts uplink video (live + playback), not control or pictures, and the rate in kbit/s', () => {
    const usage = uplinkUsage(
      [answer('S1', { live: 1_000, playback: 500, control: 70, pictures: 9 }, { live: 2_000, playback: 500, control: 100 }), answer('S2', { live: 4_000 }, null)],
      openShips([cell('S1'), cell('S2')]),
    );
    expect(usage.ships).toEqual([
      { shipId: 'S1', name: 'SHIP S1', connected: true, bytes: 1_500, kbps: 20 },
      { shipId: 'S2', name: 'SHIP S2', connected: true, bytes: 4_000, kbps: null },
    ]);
    expect(usage.totalBytes).toBe(5_500);
    // Only the known rates add up; none known is null, not zero.
    expect(usage.totalKbps).toBe(20);
    expect(uplinkUsage([answer('S2', {}, null)], openShips([cell('S2')])).totalKbps).toBeNull();
  });

  it('leaves out ships the server did not answer for', () => {
    const usage = uplinkUsage([answer('S1', { live: 10 }, zero)], openShips([cell('S1'), cell('S9')]));
    expect(usage.ships.map((s) => s.shipId)).toEqual(['S1']);
  });

  it('converts bytes per second to kbit/s', () => {
    expect(toKbps(125)).toBe(1);
    expect(toKbps(0)).toBe(0);
  });

  it('writes bytes in readable decimal units, in either language', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(999, 'en')).toBe('999 B');
    expect(formatBytes(1_000, 'en')).toBe('1.00 kB');
    expect(formatBytes(12_345, 'en')).toBe('12.3 kB');
    expect(formatBytes(1_234_567, 'zh-CN')).toBe('1.23 MB');
    expect(formatBytes(987_654_321, 'en')).toBe('988 MB');
    expect(formatBytes(5_000_000_000_000_000, 'en')).toBe('5,000 TB');
  });

  it('writes rates in kbit/s, in Mbit/s from 10,000 kbit/s', () => {
    expect(formatKbps(0, 'en')).toBe('0 kbit/s');
    expect(formatKbps(12.34, 'en')).toBe('12.3 kbit/s');
    expect(formatKbps(512.6, 'zh-CN')).toBe('513 kbit/s');
    expect(formatKbps(9_999, 'en')).toBe('9,999 kbit/s');
    expect(formatKbps(25_000, 'en')).toBe('25 Mbit/s');
  });
});
