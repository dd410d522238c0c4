import { describe, expect, it } from 'vitest';
import type { Camera, Channel, OrgShipTreeNode, Ship } from '@ship-cctv/protocol';
import {
  buildSourceTree,
  cameraInstanceId,
  flattenOrgs,
  shipDisplayName,
  shipSources,
  shipsOf,
  toPlayableSource,
  visibleChannels,
  type ShipChannels,
  type SourceNode,
} from './tree.ts';

function ship(id: string, name: string, enName: string, orgId = 'blueocean'): Ship {
  return { id, name, enName, orgId, orgName: '蓝海航运', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
}

function camera(id: string, name: string, other = `cameraId=${id}`, sourceType = 'hkszy'): Camera {
  return { id, type: 'ipc', sourceType, other, name };
}

function channel(id: string, name: string, cameras: Camera[], extra: Partial<Channel> = {}): Channel {
  return { id, name, shipId: 'S1', block: 0, sort: 0, cameras, ...extra };
}

function org(id: string, name: string, ships: Ship[], children: OrgShipTreeNode[] = []): OrgShipTreeNode {
  return { organizationid: id, organizationname: name, displayName: id.toUpperCase(), parentId: null, orgShipTreeNodes: children, shipList: ships };
}

const star = ship('S1', '蓝海之星', 'BLUE OCEAN STAR');
const pearl = ship('S2', '蓝海明珠', 'BLUE PEARL');
const wind = ship('S3', '长风号', 'LONG WIND', 'tankers');
const tankers = org('tankers', '蓝海油运', [wind]);
const blueocean = org('blueocean', '蓝海航运', [star, pearl], [tankers]);

const bridge = channel('C1', 'Bridge', [camera('C1-1', 'Bridge')], { sort: 1 });
const deck = channel('C2', 'Main Deck', [camera('C2-1', 'Port'), camera('C2-2', 'Starboard')], { sort: 0 });
const secret = channel('C3', 'Engine', [camera('C3-1', 'Engine')], { block: 1, sort: 2 });
const ready: ShipChannels = { status: 'ready', channels: [bridge, deck, secret], waitTime: 8 };

const keys = (nodes: readonly SourceNode[]): unknown[] =>
  nodes.map((node) => ('children' in node && node.children ? [node.key, keys(node.children)] : node.key));

describe('organisations', () => {
  it('flattens parents before children and drops the system node', () => {
    const system = org('system', 'system', [ship('X', 'x', 'X')]);
    expect(flattenOrgs([blueocean, system]).map((o) => [o.id, o.depth, o.name])).toEqual([
      ['blueocean', 0, '蓝海航运'],
      ['tankers', 1, '蓝海油运'],
    ]);
  });

  it('collects the ships of an organisation and its children', () => {
    expect(shipsOf(blueocean).map((s) => s.id)).toEqual(['S1', 'S2', 'S3']);
  });
});

describe('ships and channels', () => {
  it('shows a ship as English name plus name', () => {
    expect(shipDisplayName(star)).toBe('BLUE OCEAN STAR 蓝海之星');
    expect(shipDisplayName({ enName: '', name: '宁江一号' })).toBe('宁江一号');
  });

  it('hides blocked channels and keeps the sort order', () => {
    expect(visibleChannels([bridge, deck, secret]).map((c) => c.id)).toEqual(['C2', 'C1']);
  });

  it('takes the instance id from cctvInstanceId for landsea sources, else the ship name', () => {
    expect(cameraInstanceId(camera('a', 'A', 'cctvInstanceId=XP-2002|iosChannelId=3', 'xplus'), star)).toBe('XP-2002');
    expect(cameraInstanceId(camera('b', 'B', 'cameraId=7', 'hkszy'), star)).toBe('蓝海之星');
  });

  it('builds what the play grid needs, titling multi-camera channels with the camera', () => {
    const [port] = deck.cameras;
    expect(toPlayableSource(star, deck, port!, 8)).toEqual({
      cameraId: 'C2-1',
      title: 'Main Deck · Port',
      channelId: 'C2',
      shipId: 'S1',
      shipName: '蓝海之星',
      shipDisplayName: 'BLUE OCEAN STAR 蓝海之星',
      orgId: 'blueocean',
      orgName: '蓝海航运',
      waitTime: 8,
      componentType: 'live',
      // The camera's type: a ptz camera's cell gets the PTZ pad.
      cameraType: 'ipc',
      // Where the camera's live status comes on STOMP (/mediaList/{instance}): the ship's name for a standard camera.
      instanceId: '蓝海之星',
    });
    expect(toPlayableSource(star, bridge, bridge.cameras[0]!, 8).title).toBe('Bridge');
  });

  it('right-click sources: every camera of the visible channels, in order, none blocked', () => {
    expect(shipSources(star, [bridge, deck, secret], 5).map((s) => s.cameraId)).toEqual(['C2-1', 'C2-2', 'C1-1']);
  });
});

describe('source tree', () => {
  it('lists ships, then sub-organisations; unexpanded ships have no children yet', () => {
    expect(keys(buildSourceTree(blueocean, new Map()))).toEqual([['ship:S1', []], ['ship:S2', []], ['org:tankers', [['ship:S3', []]]]]);
  });

  it('shows loading, failure and empty states of a ship', () => {
    const tree = buildSourceTree(
      blueocean,
      new Map<string, ShipChannels>([
        ['S1', { status: 'loading' }],
        ['S2', { status: 'error' }],
        ['S3', { status: 'ready', channels: [secret], waitTime: 8 }],
      ]),
    );
    expect(keys(tree)).toEqual([
      ['ship:S1', ['ship:S1:loading']],
      ['ship:S2', ['ship:S2:error']],
      ['org:tankers', [['ship:S3', ['ship:S3:empty']]]],
    ]);
  });

  it('gives multi-camera channels camera sub-items and hides blocked channels', () => {
    const tree = buildSourceTree(org('o', 'o', [star]), new Map([['S1', ready]]));
    expect(keys(tree)).toEqual([['ship:S1', [['channel:C2', ['camera:C2-1', 'camera:C2-2']], 'channel:C1']]]);
  });

  it('filters by ship name (keeping all its channels) and by channel or camera name', () => {
    const channels = new Map([['S1', ready]]);
    expect(keys(buildSourceTree(blueocean, channels, 'pearl'))).toEqual([['ship:S2', []]]);
    expect(keys(buildSourceTree(blueocean, channels, '长风'))).toEqual([['org:tankers', [['ship:S3', []]]]]);
    expect(keys(buildSourceTree(blueocean, channels, 'bridge'))).toEqual([['ship:S1', ['channel:C1']]]);
    expect(keys(buildSourceTree(blueocean, channels, 'starboard'))).toEqual([['ship:S1', [['channel:C2', ['camera:C2-2']]]]]);
    expect(keys(buildSourceTree(blueocean, channels, 'STAR 蓝海'))).toEqual([['ship:S1', [['channel:C2', ['camera:C2-1', 'camera:C2-2']], 'channel:C1']]]);
    expect(buildSourceTree(blueocean, channels, 'nothing')).toEqual([]);
  });

  it('stays fast with hundreds of ships', () => {
    const many = org('big', 'big', Array.from({ length: 800 }, (_, i) => ship(`S${i}`, `船${i}`, `SHIP ${i}`)));
    const tree = buildSourceTree(many, new Map(), 'ship 79');
    expect(tree.map((n) => n.key)).toEqual(['ship:S79', ...Array.from({ length: 10 }, (_, i) => `ship:S${790 + i}`)]);
  });
});
