/**
 * Texts of the mobile app (spec §2 mobile screen), merged into the app's locales under `mobile`.
 * zh-CN is the source of the keys; en must have the same shape. The channel list's loading, empty
 * and failed texts are the spec's (§8) and shared with the desktop tree under `fleet`.
 */
export const mobileZhCN = {
  tabs: {
    label: '页面导航',
    live: '实时视频',
    playback: '船端回放',
    events: '事件',
  },
  titleBar: {
    fullscreen: '全屏',
    user: '用户',
    logout: '退出登录',
    logoutConfirm: '确定退出登录吗？',
    cancel: '取消',
    settings: '设置',
    language: '语言',
    close: '关闭',
  },
  source: {
    organisation: '组织',
    organisationPrompt: '请选择组织',
    ship: '船舶',
    shipPrompt: '请选择船舶',
    noShips: '暂无船舶',
    channels: '通道',
    onlineCount: '在线 {{online}}/{{total}}',
    longPressHint: '长按通道选择播放方式',
    loadFailed: '组织加载失败',
    retry: '重试',
  },
  actions: {
    title: '{{channel}} · 请选择播放方式',
    live: '实时视频',
    playback: '船端视频回放',
    cancel: '取消',
  },
  liveOptions: {
    title: '实时视频',
    definition: '清晰度',
    defaultChoice: '{{name}}（默认）',
    loading: '正在加载清晰度...',
    loadFailed: '清晰度加载失败',
    play: '播放',
    cancel: '取消',
  },
  /** The rest of the dialog's texts are the desktop's (`playback.options`). */
  playbackOptions: {
    title: '船端视频回放',
    pick: '请选择',
  },
  video: {
    empty: '长按下方通道，选择实时视频或船端视频回放',
    close: '关闭视频',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const mobileEn: Widen<typeof mobileZhCN> = {
  tabs: {
    label: 'Pages',
    live: 'Live',
    playback: 'Ship playback',
    events: 'Events',
  },
  titleBar: {
    fullscreen: 'Fullscreen',
    user: 'User',
    logout: 'Logout',
    logoutConfirm: 'Log out now?',
    cancel: 'Cancel',
    settings: 'Settings',
    language: 'Language',
    close: 'Close',
  },
  source: {
    organisation: 'Organisation',
    organisationPrompt: 'Choose an organisation',
    ship: 'Ship',
    shipPrompt: 'Choose a ship',
    noShips: 'No ships',
    channels: 'Channels',
    onlineCount: 'Online {{online}}/{{total}}',
    longPressHint: 'Long-press a channel to choose how to play it',
    loadFailed: 'Failed to load the organisations',
    retry: 'Retry',
  },
  actions: {
    title: '{{channel}} · choose how to play',
    live: 'Live video',
    playback: 'Ship-end video playback',
    cancel: 'Cancel',
  },
  liveOptions: {
    title: 'Live video',
    definition: 'Resolution',
    defaultChoice: '{{name}} (default)',
    loading: 'Loading resolutions...',
    loadFailed: 'Failed to load the resolutions',
    play: 'Play',
    cancel: 'Cancel',
  },
  playbackOptions: {
    title: 'Ship-end video playback',
    pick: 'Choose',
  },
  video: {
    empty: 'Long-press a channel below to choose live video or ship-end playback',
    close: 'Close video',
  },
};
