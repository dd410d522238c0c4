import type { Camera, Channel, OrgShipTreeNode, Ship } from '@ship-cctv/protocol';

/** Small fleet fixtures for the mobile tests (shapes of @ship-cctv/protocol). */
export function ship(id: string, name: string, enName: string, orgId = 'blueocean'): Ship {
  return { id, name, enName, orgId, orgName: '蓝海航运', jsonObject: { version: '3', third: [] }, timeZone: 'Asia/Shanghai' };
}

export function camera(id: string, name: string): Camera {
  return { id, type: 'ipc', sourceType: 'hkszy', other: `cameraId=${id}`, name };
}

export function channel(id: string, name: string, cameras: Camera[], extra: Partial<Channel> = {}): Channel {
  return { id, name, shipId: 'S1', block: 0, sort: 0, cameras, ...extra };
}

export function org(id: string, name: string, ships: Ship[], children: OrgShipTreeNode[] = []): OrgShipTreeNode {
  return { organizationid: id, organizationname: name, displayName: id.toUpperCase(), parentId: null, orgShipTreeNodes: children, shipList: ships };
}
