import type { Carousel, CarouselCell, CarouselStatus } from '@ship-cctv/protocol';

/** Carousels, cells and statuses for the feature's tests. */
export function testCarousel(patch: Partial<Carousel> = {}): Carousel {
  return {
    id: 'car00001',
    kind: 'simple',
    name: 'Deck watch',
    orgId: 'blueocean',
    orgName: '蓝海航运',
    layout: 4,
    minutes: 1,
    seconds: null,
    dwellMs: 60_000,
    templateId: null,
    channelIds: ['S1001-C01', 'S1001-C02'],
    mode: 'channels',
    shipIds: [],
    schedule: null,
    running: false,
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}

export function testCell(channelId: string, patch: Partial<CarouselCell> = {}): CarouselCell {
  const shipId = channelId.split('-')[0] ?? 'S1001';
  return {
    channelId,
    channelName: `Channel ${channelId}`,
    cameraId: `${channelId}-1`,
    shipId,
    shipName: `ship-${shipId}`,
    shipDisplayName: `SHIP ${shipId}`,
    orgId: 'blueocean',
    orgName: '蓝海航运',
    waitTime: 8,
    online: true,
    ...patch,
  };
}

export function testStatus(patch: Partial<CarouselStatus> = {}): CarouselStatus {
  return {
    id: 'task0001',
    state: 'running',
    page: 0,
    pageCount: 2,
    layout: 4,
    dwellMs: 20_000,
    cells: [],
    next: [],
    startedAt: 0,
    switchAt: Date.now() + 20_000,
    serverTime: Date.now(),
    prewarmSeconds: 5,
    ...patch,
  };
}
