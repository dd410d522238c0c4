/**
 * Texts of the live play grid and its cells, merged into the app's locales under `live`
 * (see ../../i18n/locales). zh-CN is the source of the keys; en must have the same shape.
 * Spec texts used verbatim: 只能同时播放16个通道, 只能同时播放前16个通道, 无默认清晰度模板.
 */
export const liveZhCN = {
  playlistFull: '只能同时播放16个通道',
  playlistFullGroup: '只能同时播放前16个通道',
  grid: {
    label: '播放窗口',
    layout: '画面布局',
    layoutOption: '{{count}}画面',
    emptyCell: '双击左侧通道播放视频',
  },
  cell: {
    close: '关闭',
    fullscreen: '全屏',
    exitFullscreen: '退出全屏',
    stats: '播放信息',
    definition: '清晰度',
    definitionDefault: '默认清晰度',
    connecting: '正在连接…',
    waiting: '正在打开视频，预计等待 {{seconds}} 秒',
    waitingLong: '正在打开视频，请稍候…',
    reconnecting: '正在重新连接…',
    playFailed: '视频播放失败',
    offline: '通道不在线',
    shipLinkDown: '船舶链路已断开',
    stalled: '通道网络不稳定或已断开',
    noDefaultTemplate: '无默认清晰度模板',
    chooseDefinition: '请选择清晰度后播放',
    forbidden: '您没有权限进行此操作',
    notFound: '通道不存在',
    unsupported: '当前浏览器无法播放此视频',
    clickToPlay: '点击播放',
    ended: '视频已关闭',
    replay: '重新播放',
    lowestDefinition: '网络不佳，已自动切换到最低清晰度',
    definitionRestored: '网络已恢复，已切换回所选清晰度',
    limitCountdown: '已达到连续观看时长，视频将在 {{seconds}} 秒后关闭',
    limitReached: '已达到连续观看时长，视频已暂停',
    continue: '继续观看',
  },
  stats: {
    latency: '延迟',
    bitrate: '码率',
    fps: '帧率',
    resolution: '分辨率',
    link: '链路',
    linkUnknown: '未知',
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
  },
  cell: {
    close: 'Close',
    fullscreen: 'Fullscreen',
    exitFullscreen: 'Exit fullscreen',
    stats: 'Playback info',
    definition: 'Resolution',
    definitionDefault: 'Default resolution',
    connecting: 'Connecting…',
    waiting: 'Opening the video, about {{seconds}} s to wait',
    waitingLong: 'Opening the video, please wait…',
    reconnecting: 'Reconnecting…',
    playFailed: 'Video play failed',
    offline: 'Channel not online',
    shipLinkDown: 'The ship link is down',
    stalled: 'Channel network is unstable or disconnected',
    noDefaultTemplate: 'No default resolution template',
    chooseDefinition: 'Choose a resolution to play',
    forbidden: 'You do not have permission to do this',
    notFound: 'The channel does not exist',
    unsupported: 'This browser cannot play this video',
    clickToPlay: 'Click to play',
    ended: 'The video was closed',
    replay: 'Play again',
    lowestDefinition: 'Bad network: switched to the lowest resolution automatically',
    definitionRestored: 'Network recovered: back to the chosen resolution',
    limitCountdown: 'Continuous watching limit reached: the video closes in {{seconds}} s',
    limitReached: 'Continuous watching limit reached: the video is paused',
    continue: 'Continue watching',
  },
  stats: {
    latency: 'Latency',
    bitrate: 'Bitrate',
    fps: 'Frame rate',
    resolution: 'Resolution',
    link: 'Link',
    linkUnknown: 'Unknown',
  },
};

/** The shape of the texts with every leaf a string, so en is checked key by key against zh-CN. */
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type LiveTexts = Texts<typeof liveZhCN>;
