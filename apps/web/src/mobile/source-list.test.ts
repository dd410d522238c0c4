import { describe, expect, it } from 'vitest';
import { channelListState, LIST_TEXT_KEYS, resolveSelectedShip } from './source-list.ts';
import { camera, channel, ship } from './test-fleet.ts';
import { createI18n } from '../i18n/index.ts';

const star = ship('S1', '蓝海之星', 'BLUE OCEAN STAR');
const pearl = ship('S2', '蓝海明珠', 'BLUE PEARL');
const bridge = channel('C1', 'Bridge', [camera('C1-1', 'Bridge')], { sort: 1 });
const deck = channel('C2', 'Main Deck', [camera('C2-1', 'Port'), camera('C2-2', 'Starboard')], { sort: 0 });
const blocked = channel('C3', 'Engine', [camera('C3-1', 'Engine')], { block: 1, sort: 2 });

describe('channel list states (spec §8 mobile texts)', () => {
  it('asks for a ship until one is chosen', () => {
    expect(channelListState(undefined, undefined)).toEqual({ kind: 'noShip' });
  });

  it('is loading until the channels are asked for and while they load', () => {
    expect(channelListState(star, undefined)).toEqual({ kind: 'loading' });
    expect(channelListState(star, { status: 'loading' })).toEqual({ kind: 'loading' });
  });

  it('has failed when the channels could not be loaded', () => {
    expect(channelListState(star, { status: 'error' })).toEqual({ kind: 'error' });
  });

  it('is empty with no channel, or only blocked ones', () => {
    expect(channelListState(star, { status: 'ready', channels: [], waitTime: 8 })).toEqual({ kind: 'empty' });
    expect(channelListState(star, { status: 'ready', channels: [blocked], waitTime: 8 })).toEqual({ kind: 'empty' });
  });

  it('lists channels in order, blocked ones hidden, a multi-camera channel as a heading over its cameras', () => {
    const state = channelListState(star, { status: 'ready', channels: [bridge, deck, blocked], waitTime: 8 });
    expect(state.kind).toBe('ready');
    if (state.kind !== 'ready') return;
    expect(state.rows.map((row) => [row.kind, row.key, row.kind === 'source' ? row.nested : null])).toEqual([
      ['group', 'channel:C2', null],
      ['source', 'camera:C2-1', true],
      ['source', 'camera:C2-2', true],
      ['source', 'camera:C1-1', false],
    ]);
    const port = state.rows[1];
    expect(port?.kind === 'source' && port.source).toMatchObject({ cameraId: 'C2-1', title: 'Main Deck · Port', shipId: 'S1', waitTime: 8, componentType: 'live' });
  });

  it('words each message state with the spec’s texts', () => {
    const zh = createI18n('zh-CN');
    expect(zh.t(LIST_TEXT_KEYS.loading)).toBe('正在加载通道...');
    expect(zh.t(LIST_TEXT_KEYS.empty)).toBe('暂无通道');
    expect(zh.t(LIST_TEXT_KEYS.error)).toBe('通道加载失败');
    const en = createI18n('en');
    expect(en.t(LIST_TEXT_KEYS.error)).toBe('Failed to load channels');
  });
});

describe('ship choice (spec §2)', () => {
  it('picks the only ship by itself', () => {
    expect(resolveSelectedShip([star], null)).toBe(star);
  });

  it('waits for a pick among several', () => {
    expect(resolveSelectedShip([star, pearl], null)).toBeUndefined();
    expect(resolveSelectedShip([star, pearl], 'S2')).toBe(pearl);
  });

  it('forgets a pick that is not one of the organisation’s ships', () => {
    expect(resolveSelectedShip([star, pearl], 'S9')).toBeUndefined();
  });
});
