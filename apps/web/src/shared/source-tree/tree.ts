import { cameraSource, shipDisplayName, type Camera, type Channel, type OrgShipTreeNode, type Ship } from '@ship-cctv/protocol';
import type { PlayableSource } from '../playable-source.ts';

/** Spec §3: a node named system is dropped from the organisation tree. */
const SYSTEM_ORG = 'system';

export interface OrgOption {
  id: string;
  /** organizationname: what the wait time is looked up by. */
  name: string;
  displayName: string;
  /** 0 for a top organisation, 1 for its children, … (the picker indents by it). */
  depth: number;
  node: OrgShipTreeNode;
}

function isSystem(node: OrgShipTreeNode): boolean {
  return node.organizationname === SYSTEM_ORG || node.organizationid === SYSTEM_ORG;
}

/** Every organisation the user may pick, parents before children, without the system node. */
export function flattenOrgs(nodes: readonly OrgShipTreeNode[], depth = 0): OrgOption[] {
  return nodes
    .filter((node) => !isSystem(node))
    .flatMap((node) => [
      { id: node.organizationid, name: node.organizationname, displayName: node.displayName || node.organizationname, depth, node },
      ...flattenOrgs(node.orgShipTreeNodes, depth + 1),
    ]);
}

/** All ships of an organisation and its sub-organisations. */
export function shipsOf(node: OrgShipTreeNode): Ship[] {
  return [...node.shipList, ...node.orgShipTreeNodes.filter((child) => !isSystem(child)).flatMap(shipsOf)];
}

/** Spec §3's ship name rule, shared with the server (it names ships in carousel cells). */
export { shipDisplayName };

/** Spec §3: channels with block 1 are hidden; the rest in the server's sort order. */
export function visibleChannels(channels: readonly Channel[]): Channel[] {
  return channels.filter((channel) => channel.block !== 1).sort((a, b) => a.sort - b.sort);
}

/** Spec §3: a channel with more than one camera gets a sub-item per camera. */
export function hasSubItems(channel: Channel): boolean {
  return channel.cameras.length > 1;
}

/** Where a camera's status is published (/mediaList/{instanceId}). */
export function cameraInstanceId(camera: Camera, ship: Pick<Ship, 'name'>): string {
  return cameraSource(camera.sourceType, camera.other, ship.name).instanceId;
}

/** What the play grid needs to open a camera (see ./types.ts). */
export function toPlayableSource(ship: Ship, channel: Channel, camera: Camera, waitTime: number): PlayableSource {
  return {
    cameraId: camera.id,
    title: hasSubItems(channel) ? `${channel.name} · ${camera.name}` : channel.name,
    channelId: channel.id,
    shipId: ship.id,
    shipName: ship.name,
    shipDisplayName: shipDisplayName(ship),
    orgId: ship.orgId,
    orgName: ship.orgName,
    waitTime,
    componentType: 'live',
    cameraType: camera.type,
    instanceId: cameraInstanceId(camera, ship),
  };
}

/** A channel's cameras as sources (a multi-camera channel plays every camera). */
export function channelSources(ship: Ship, channel: Channel, waitTime: number): PlayableSource[] {
  return channel.cameras.map((camera) => toPlayableSource(ship, channel, camera, waitTime));
}

/** Right-click on a ship: its visible channels in order (the playlist keeps the first 16). */
export function shipSources(ship: Ship, channels: readonly Channel[], waitTime: number): PlayableSource[] {
  return visibleChannels(channels).flatMap((channel) => channelSources(ship, channel, waitTime));
}

// ---------------------------------------------------------------------------------------------
// Tree nodes

/** Loading state of a ship's channels (spec §4 "Expanding a ship"). */
export type ShipChannels =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'ready'; channels: Channel[]; waitTime: number };

export type SourceNode =
  | { kind: 'org'; key: string; org: OrgShipTreeNode; children: SourceNode[] }
  | { kind: 'ship'; key: string; ship: Ship; isLeaf: false; children: SourceNode[] }
  | { kind: 'channel'; key: string; ship: Ship; channel: Channel; waitTime: number; isLeaf: boolean; children?: SourceNode[] }
  | { kind: 'camera'; key: string; ship: Ship; channel: Channel; camera: Camera; waitTime: number; isLeaf: true }
  | { kind: 'message'; key: string; message: 'loading' | 'empty' | 'error'; isLeaf: true; selectable: false };

export const shipKey = (shipId: string) => `ship:${shipId}`;

function matches(text: string, query: string): boolean {
  return text.toLowerCase().includes(query);
}

function channelNodes(ship: Ship, state: ShipChannels | undefined, query: string, shipMatched: boolean): SourceNode[] {
  const message = (kind: 'loading' | 'empty' | 'error'): SourceNode[] => [
    { kind: 'message', key: `${shipKey(ship.id)}:${kind}`, message: kind, isLeaf: true, selectable: false },
  ];
  if (!state) return []; // not expanded yet: children come when it is
  if (state.status === 'loading') return message('loading');
  if (state.status === 'error') return message('error');
  const nodes: SourceNode[] = [];
  for (const channel of visibleChannels(state.channels)) {
    const cameras = hasSubItems(channel)
      ? channel.cameras
          .filter((camera) => shipMatched || !query || matches(channel.name, query) || matches(camera.name, query))
          .map(
            (camera): SourceNode => ({
              kind: 'camera',
              key: `camera:${camera.id}`,
              ship,
              channel,
              camera,
              waitTime: state.waitTime,
              isLeaf: true,
            }),
          )
      : undefined;
    const channelMatched = shipMatched || !query || matches(channel.name, query) || (cameras?.length ?? 0) > 0;
    if (!channelMatched) continue;
    nodes.push({
      kind: 'channel',
      key: `channel:${channel.id}`,
      ship,
      channel,
      waitTime: state.waitTime,
      isLeaf: !cameras,
      ...(cameras ? { children: cameras } : {}),
    });
  }
  return nodes.length > 0 || !shipMatched ? nodes : message('empty');
}

/**
 * The tree under the selected organisation: its ships, then its sub-organisations. With a search
 * query only ships whose name matches (with all their channels) or that have a matching loaded
 * channel or camera stay, and organisations that still hold one. `shipsWithMatches` names ships
 * the server found matching channels on: while their channels are not loaded they stay too (as
 * ships to open); once loaded, their own channels decide.
 */
export function buildSourceTree(
  org: OrgShipTreeNode,
  channels: ReadonlyMap<string, ShipChannels>,
  search = '',
  shipsWithMatches: ReadonlySet<string> = new Set(),
): SourceNode[] {
  const query = search.trim().toLowerCase();
  const ships = org.shipList.flatMap((ship): SourceNode[] => {
    const shipMatched = !query || matches(shipDisplayName(ship), query);
    const state = channels.get(ship.id);
    const children = channelNodes(ship, state, query, shipMatched);
    const matchedUnloaded = Boolean(query) && state === undefined && shipsWithMatches.has(ship.id);
    if (!shipMatched && children.length === 0 && !matchedUnloaded) return [];
    // isLeaf false: an unexpanded ship has no children yet but must still show its expander.
    return [{ kind: 'ship', key: shipKey(ship.id), ship, isLeaf: false, children }];
  });
  const orgs = org.orgShipTreeNodes
    .filter((child) => !isSystem(child))
    .flatMap((child): SourceNode[] => {
      const children = buildSourceTree(child, channels, search, shipsWithMatches);
      if (query && children.length === 0) return [];
      return [{ kind: 'org', key: `org:${child.organizationid}`, org: child, children }];
    });
  return [...ships, ...orgs];
}

/** Keys of every organisation node: open from the start, so each ship and its link state shows without a click. */
export function orgNodeKeys(nodes: readonly SourceNode[]): string[] {
  return nodes.flatMap((node) => (node.kind === 'org' ? [node.key, ...orgNodeKeys(node.children)] : []));
}

/** Keys to show open while searching: every organisation and ship left in the filtered tree. */
export function searchExpandedKeys(nodes: readonly SourceNode[]): string[] {
  return nodes.flatMap((node) => {
    if (node.kind === 'org') return [node.key, ...searchExpandedKeys(node.children)];
    if (node.kind === 'ship' && node.children.length > 0) return [node.key, ...searchExpandedKeys(node.children)];
    if (node.kind === 'channel' && node.children) return [node.key];
    return [];
  });
}
