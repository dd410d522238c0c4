import { describe, expect, it } from 'vitest';
import type { Camera, Channel, ChannelSearchResult, OrgShipTreeNode, Ship } from '@ship-cctv/protocol';
import { searchText, shipsToOpen, shipsWithMatches } from './search.ts';
import { buildSourceTree, searchExpandedKeys, shipsOf, type ShipChannels, type SourceNode } from './tree.ts';

function ship(id: string, enName: string, orgId = 'fleet'): Ship {
  return { id, name: `船${id}`, enName, orgId, orgName: '船队', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
}
const camera = (id: string, name: string): Camera => ({ id, type: 'ipc', sourceType: 'hkszy', other: `cameraId=${id}`, name });
const channel = (id: string, shipId: string, name: string, cameras: Camera[] = [camera(`${id}-1`, name)]): Channel => ({ id, name, shipId, block: 0, sort: 0, cameras });

/** A fleet of 300 ships, S000–S299; every tenth has a "Pump Room". */
const ships = Array.from({ length: 300 }, (_, i) => ship(`S${String(i).padStart(3, '0')}`, `VESSEL ${i}`));
const fleet: OrgShipTreeNode = { organizationid: 'fleet', organizationname: '船队', displayName: 'Fleet', parentId: null, orgShipTreeNodes: [], shipList: ships };
const channelsOf = (s: Ship): Channel[] => [channel(`${s.id}-C01`, s.id, 'Bridge'), ...(Number(s.id.slice(1)) % 10 === 0 ? [channel(`${s.id}-C02`, s.id, 'Pump Room')] : [])];

function result(name: string, matches: { shipId: string; channelId: string }[]): ChannelSearchResult {
  return { orgId: 'fleet', name, truncated: false, matches: matches.map((m) => ({ ...m, channelName: name, cameraIds: [] })) };
}
const pumpResult = result(
  'pump',
  ships.filter((s) => Number(s.id.slice(1)) % 10 === 0).map((s) => ({ shipId: s.id, channelId: `${s.id}-C02` })),
);

const shipKeys = (nodes: readonly SourceNode[]) => nodes.filter((n) => n.kind === 'ship').map((n) => n.key);

describe('searching ships that are not expanded yet', () => {
  it('asks the server with the trimmed text, and not at all for blanks', () => {
    expect(searchText('  pump ')).toBe('pump');
    expect(searchText('   ')).toBe('');
  });

  it('keeps ships the server found matches on, though their channels are not loaded', () => {
    const matching = shipsWithMatches(pumpResult);
    expect(matching).toHaveLength(30);
    // Without the server's answer, nothing loaded matches "pump".
    expect(buildSourceTree(fleet, new Map(), 'pump')).toEqual([]);
    const nodes = buildSourceTree(fleet, new Map(), 'pump', new Set(matching));
    expect(shipKeys(nodes)).toEqual(matching.map((id) => `ship:${id}`));
    // Not loaded: no children yet, so not shown open.
    expect(searchExpandedKeys(nodes)).toEqual([]);
  });

  it('opens only the first 20 matching ships, skipping those loaded, loading or failed', () => {
    const matching = shipsWithMatches(pumpResult);
    const loaded = new Map<string, ShipChannels>([
      ['S000', { status: 'ready', channels: channelsOf(ships[0] as Ship), waitTime: 8 }],
      ['S010', { status: 'loading' }],
      ['S020', { status: 'error' }],
    ]);
    const open = shipsToOpen(matching, shipsOf(fleet), loaded);
    expect(open).toHaveLength(17);
    expect(open[0]?.id).toBe('S030');
    expect(open.at(-1)?.id).toBe('S190');
    // A ship of another organisation is never opened, whatever the answer says.
    expect(shipsToOpen(['X1', 'S000'], shipsOf(fleet), new Map()).map((s) => s.id)).toEqual(['S000']);
  });

  it('once a matching ship is loaded, shows it open with only the matching channels', () => {
    const matching = new Set(shipsWithMatches(pumpResult));
    const loaded = new Map<string, ShipChannels>([
      ['S030', { status: 'loading' }],
      ['S040', { status: 'ready', channels: channelsOf(ships[40] as Ship), waitTime: 8 }],
      // Loaded, but its channels do not match (the server's answer is older): the loaded channels decide.
      ['S050', { status: 'ready', channels: [channel('S050-C01', 'S050', 'Bridge')], waitTime: 8 }],
    ]);
    const nodes = buildSourceTree(fleet, loaded, 'pump', matching);
    const s040 = nodes.find((n) => n.key === 'ship:S040');
    expect(s040 && 'children' in s040 ? s040.children?.map((c) => c.key) : undefined).toEqual(['channel:S040-C02']);
    const s030 = nodes.find((n) => n.key === 'ship:S030');
    expect(s030 && 'children' in s030 ? s030.children?.map((c) => c.key) : undefined).toEqual(['ship:S030:loading']);
    expect(nodes.find((n) => n.key === 'ship:S050')).toBeUndefined();
    expect(searchExpandedKeys(nodes)).toEqual(['ship:S030', 'ship:S040']);
  });

  it('ignores the server matches without a search text (the whole fleet shows)', () => {
    expect(buildSourceTree(fleet, new Map(), '', new Set(['S010']))).toHaveLength(300);
  });
});
