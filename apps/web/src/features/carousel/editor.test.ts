import { describe, expect, it } from 'vitest';
import type { Carousel, CarouselCell, ShipConfig } from '@ship-cctv/protocol';
import {
  addChannels,
  type CarouselFormValues,
  type ChosenChannel,
  definitionModels,
  dwellOf,
  moveItem,
  newCarouselValues,
  toEstimateBody,
  toSimpleBody,
  toTaskBody,
  validateCarousel,
  valuesOf,
} from './editor.ts';

const channel = (id: string, shipId = 'S1001'): ChosenChannel => ({ channelId: id, channelName: `Ch ${id}`, shipId, shipDisplayName: `SHIP ${shipId}`, orgId: 'blueocean' });

function values(patch: Partial<CarouselFormValues> = {}): CarouselFormValues {
  return { ...newCarouselValues('blueocean', 'simple', 'Asia/Shanghai'), name: 'Deck watch', channels: [channel('S1001-C01')], ...patch };
}

describe("the editor's checks", () => {
  const opts = { secondsAllowed: false };

  it('accepts a named carousel with channels and a whole number of minutes', () => {
    expect(validateCarousel(values(), opts)).toEqual({});
  });

  it('refuses an empty name, an empty channel list, and minutes outside 1–1440 or not whole', () => {
    expect(validateCarousel(values({ name: '   ' }), opts)).toEqual({ name: 'name' });
    expect(validateCarousel(values({ channels: [] }), opts)).toEqual({ channels: 'noChannels' });
    for (const minutes of [null, 0, 1441, 1.5]) expect(validateCarousel(values({ minutes }), opts), String(minutes)).toEqual({ minutes: 'minutes' });
    for (const minutes of [1, 1440]) expect(validateCarousel(values({ minutes }), opts)).toEqual({});
  });

  it('checks seconds only where the server allows them', () => {
    expect(validateCarousel(values({ seconds: 2 }), { secondsAllowed: false })).toEqual({});
    expect(validateCarousel(values({ seconds: 2 }), { secondsAllowed: true })).toEqual({ seconds: 'seconds' });
    expect(validateCarousel(values({ seconds: 20 }), { secondsAllowed: true })).toEqual({});
    expect(validateCarousel(values({ seconds: null }), { secondsAllowed: true })).toEqual({});
  });

  it('asks a task for what its mode needs: channels, ships, or nothing', () => {
    expect(validateCarousel(values({ kind: 'task', mode: 'ships', channels: [] }), opts)).toEqual({ ships: 'noShips' });
    expect(validateCarousel(values({ kind: 'task', mode: 'ships', channels: [], shipIds: ['S1001'] }), opts)).toEqual({});
    expect(validateCarousel(values({ kind: 'task', mode: 'organisation', channels: [] }), opts)).toEqual({});
    // A simple carousel always lists channels, whatever mode was left over from a task.
    expect(validateCarousel(values({ kind: 'simple', mode: 'organisation', channels: [] }), opts)).toEqual({ channels: 'noChannels' });
  });

  it('checks a schedule only when it is on', () => {
    expect(validateCarousel(values({ kind: 'task', scheduleOn: false, days: [] }), opts)).toEqual({});
    expect(validateCarousel(values({ kind: 'task', scheduleOn: true, days: [] }), opts)).toEqual({ days: 'noDays' });
    expect(validateCarousel(values({ kind: 'task', scheduleOn: true, start: '25:00' }), opts)).toEqual({ times: 'times' });
    // An end at or before the start runs past midnight: allowed.
    expect(validateCarousel(values({ kind: 'task', scheduleOn: true, start: '22:00', end: '06:00' }), opts)).toEqual({});
  });

  it('caps the channel list', () => {
    const many = Array.from({ length: 257 }, (_, i) => channel(`C${i}`));
    expect(validateCarousel(values({ channels: many }), opts)).toEqual({ channels: 'tooManyChannels' });
  });
});

describe("the editor's bodies", () => {
  it('sends a simple carousel without task fields, seconds only where allowed', () => {
    const v = values({ channels: [channel('A'), channel('B')], seconds: 20, templateId: 6 });
    expect(toSimpleBody(v, false)).toEqual({ name: 'Deck watch', orgId: 'blueocean', layout: 4, minutes: 1, templateId: 6, channelIds: ['A', 'B'] });
    expect(toSimpleBody(v, true)).toMatchObject({ seconds: 20 });
    expect(toSimpleBody({ ...v, id: 'abc12345' }, false)).toMatchObject({ id: 'abc12345' });
  });

  it('sends a task with its mode, ships and schedule (days in order)', () => {
    const v = values({ kind: 'task', mode: 'ships', shipIds: ['S1001', 'S1002'], scheduleOn: true, days: [5, 1, 3], start: '22:00', end: '06:00' });
    expect(toTaskBody(v, false)).toEqual({
      name: 'Deck watch',
      orgId: 'blueocean',
      layout: 4,
      minutes: 1,
      channelIds: [],
      mode: 'ships',
      shipIds: ['S1001', 'S1002'],
      schedule: { days: [1, 3, 5], start: '22:00', end: '06:00', timeZone: 'Asia/Shanghai' },
    });
    expect(toTaskBody(values({ kind: 'task' }), false)).toMatchObject({ mode: 'channels', channelIds: ['S1001-C01'], schedule: null });
    expect(toTaskBody(values({ kind: 'task' }), false)).not.toHaveProperty('shipIds');
  });

  it('asks an estimate only for values it can price', () => {
    expect(toEstimateBody(values({ channels: [channel('A')] }), true)).toEqual({ orgId: 'blueocean', mode: 'channels', channelIds: ['A'], layout: 4, minutes: 1 });
    expect(toEstimateBody(values({ seconds: 20 }), true)).toMatchObject({ seconds: 20 });
    // A missing name does not matter to the cost; a missing channel list does.
    expect(toEstimateBody(values({ name: '' }), false)).toBeDefined();
    expect(toEstimateBody(values({ channels: [] }), false)).toBeUndefined();
    expect(toEstimateBody(values({ minutes: 0 }), false)).toBeUndefined();
  });
});

describe('the channel list', () => {
  it('moves an item to a new place (drag and drop, up and down)', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 0)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });

  it('adds channels at the end, each once', () => {
    const list = addChannels([channel('A')], [channel('B'), channel('A'), channel('C'), channel('B')]);
    expect(list.map((c) => c.channelId)).toEqual(['A', 'B', 'C']);
  });
});

describe('a saved carousel in the editor', () => {
  const carousel: Carousel = {
    id: 'car00001',
    kind: 'task',
    name: 'Night',
    orgId: 'blueocean',
    orgName: '蓝海航运',
    layout: 9,
    minutes: 2,
    seconds: null,
    dwellMs: 120_000,
    templateId: null,
    channelIds: ['S1001-C02', 'GONE'],
    mode: 'channels',
    shipIds: [],
    schedule: { days: [6, 7], start: '20:00', end: '08:00', timeZone: 'Asia/Singapore' },
    running: false,
    createdAt: 0,
    updatedAt: 0,
  };
  const cell: CarouselCell = {
    channelId: 'S1001-C02',
    channelName: 'Engine Room',
    cameraId: 'S1001-C02-1',
    shipId: 'S1001',
    shipName: '蓝海之星',
    shipDisplayName: 'BLUE OCEAN STAR 蓝海之星',
    orgId: 'blueocean',
    orgName: '蓝海航运',
    waitTime: 8,
    online: true,
  };

  it('names its channels from the resolved cells, in its order', () => {
    const v = valuesOf(carousel, [cell], 'Europe/Paris');
    expect(v.channels.map((c) => [c.channelId, c.channelName])).toEqual([
      ['S1001-C02', 'Engine Room'],
      ['GONE', 'GONE'],
    ]);
    expect(v).toMatchObject({ id: 'car00001', kind: 'task', layout: 9, minutes: 2, scheduleOn: true, days: [6, 7], start: '20:00', timeZone: 'Asia/Singapore' });
    expect(valuesOf({ ...carousel, schedule: null }, [], 'Europe/Paris')).toMatchObject({ scheduleOn: false, timeZone: 'Europe/Paris' });
  });

  it('shows the dwell in seconds when they override minutes', () => {
    expect(dwellOf(carousel)).toEqual({ unit: 'minutes', count: 2 });
    expect(dwellOf({ ...carousel, seconds: 20 })).toEqual({ unit: 'seconds', count: 20 });
  });
});

describe('the resolution choices', () => {
  it('offers each model of the ships involved once', () => {
    const model = (id: number) => ({ id, displayName: `M${id}`, width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' });
    const config = (ids: number[]): ShipConfig => ({ groupAliasResDTOS: [{ id: 1, displayName: 'G', defaultModelId: ids[0] ?? null, models: ids.map(model) }], defaultGroupId: 1, talk: false, audio: false });
    expect(definitionModels([config([5, 6]), undefined, config([6, 7])]).map((m) => m.id)).toEqual([5, 6, 7]);
    expect(definitionModels([])).toEqual([]);
  });
});
