/**
 * Texts of the source tree (organisation picker, search, ship and channel rows), merged under
 * `sourceTree` (see ../../i18n/locales). zh-CN is the source of the keys; en must have the same shape.
 */
export const sourceTreeZhCN = {
  organisation: '组织',
  organisationPrompt: '请选择组织',
  searchPrompt: '搜索船舶或通道',
  searchButton: '搜索',
  searching: '正在搜索...',
  noShips: '暂无船舶',
  noMatch: '没有匹配的船舶或通道',
  /** Spec §8 texts, verbatim. */
  channelsLoading: '正在加载通道...',
  channelsEmpty: '暂无通道',
  channelsFailed: '通道加载失败',
  online: '在线',
  offline: '离线',
  recording: '录像中',
  notRecording: '未录像',
  shoreRecording: '岸端录像中',
  signal: '信号：{{quality}}',
  signalUnknown: '信号：未知',
  link: {
    VSAT: 'VSAT 卫星',
    FBB: 'FBB 海事宽带',
    FOURTHG: '4G',
    OFFLINE: '离线',
    DEFAULT: '默认链路',
    AUTO: '自动链路',
    UNKNOWN: '未知链路',
    IRIDIUM: '铱星',
    IRIDIUM1: '铱星1',
    FX: 'FX 海事宽带',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const sourceTreeEn: Widen<typeof sourceTreeZhCN> = {
  organisation: 'Organisation',
  organisationPrompt: 'Choose an organisation',
  searchPrompt: 'Search ships or channels',
  searchButton: 'Search',
  searching: 'Searching...',
  noShips: 'No ships',
  noMatch: 'No ship or channel matches',
  channelsLoading: 'Loading channels...',
  channelsEmpty: 'No channels',
  channelsFailed: 'Failed to load channels',
  online: 'Online',
  offline: 'Offline',
  recording: 'Recording',
  notRecording: 'Not recording',
  shoreRecording: 'Recording on shore',
  signal: 'Signal: {{quality}}',
  signalUnknown: 'Signal: unknown',
  link: {
    VSAT: 'VSAT satellite',
    FBB: 'FBB (FleetBroadband)',
    FOURTHG: '4G',
    OFFLINE: 'Offline',
    DEFAULT: 'Default link',
    AUTO: 'Automatic link',
    UNKNOWN: 'Unknown link',
    IRIDIUM: 'Iridium',
    IRIDIUM1: 'Iridium 1',
    FX: 'Fleet Xpress',
  },
};
