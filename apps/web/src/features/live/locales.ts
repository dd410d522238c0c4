/**
 * Texts of the live play grid, merged into the app's locales under `live`
 * (see ../../i18n/locales). zh-CN is the source of the keys; en must have the same shape.
 * Spec texts used verbatim: 只能同时播放16个通道, 只能同时播放前16个通道.
 */
export const liveZhCN = {
  playlistFull: '只能同时播放16个通道',
  playlistFullGroup: '只能同时播放前16个通道',
  grid: {
    label: '播放窗口',
    layout: '画面布局',
    layoutOption: '{{count}}画面',
    emptyCell: '双击左侧通道播放视频',
    pickOrganisation: '请先在左侧选择组织，再双击通道播放视频',
    treeHint: '双击通道播放，右键船舶播放其前16个通道',
    fullReplaced: '所有窗口已占用：{{channel}} 已替换 {{replaced}}。关闭一个窗口或切换到更多分屏可同时观看',
    fullWaiting: '所有窗口已占用：{{count}} 个通道已加入播放列表，关闭窗口或切换到更多分屏后播放',
  },
};

export const liveEn: LiveTexts = {
  playlistFull: 'Only 16 channels can play at the same time',
  playlistFullGroup: 'Only the first 16 channels can play at the same time',
  grid: {
    label: 'Play grid',
    layout: 'Layout',
    layoutOption: 'Grid of {{count}}',
    emptyCell: 'Double-click a channel in the tree to play it',
    pickOrganisation: 'Choose an organisation on the left, then double-click a channel to play it',
    treeHint: 'Double-click a channel to play it; right-click a ship to play its first 16 channels',
    fullReplaced: 'All cells are in use: {{channel}} replaced {{replaced}}. Close a cell or choose a larger layout to watch both',
    fullWaiting: 'All cells are in use: channels added wait in the playlist ({{count}}). Close cells or choose a larger layout to play them',
  },
};

/** The shape of the texts with every leaf a string, so en is checked key by key against zh-CN. */
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type LiveTexts = Texts<typeof liveZhCN>;
