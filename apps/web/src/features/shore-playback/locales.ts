/**
 * Texts of shore video playback (/record/video), merged into the app's locales under
 * `shorePlayback` (see ../../i18n/locales). zh-CN is the source of the keys; en must have the same
 * shape. The menu and page name come from shell.menu.shorePlayback / nearEndPlayback (njzsz).
 */
export const shorePlaybackZhCN = {
  menu: {
    video: '视频回放',
  },
  page: {
    title: '{{name}} · 视频回放',
  },
  filter: {
    ship: '船舶',
    allShips: '全部船舶',
    channel: '通道',
    allChannels: '全部通道',
    time: '时间范围',
    search: '查询',
    endBeforeStart: '结束时间不能早于开始时间',
  },
  list: {
    title: '岸端录像',
    ship: '船舶',
    channel: '通道',
    start: '开始时间',
    end: '结束时间',
    duration: '时长',
    size: '大小',
    empty: '所选时间范围内没有岸端录像',
    total: '共 {{count}} 条录像',
    loadFailed: '无法加载录像列表',
  },
  player: {
    label: '岸端录像播放器',
    choose: '在列表或时间轴上选择录像后播放',
    recordedTime: '录像时间',
    play: '播放',
    pause: '暂停',
    speed: '倍速',
    speedOption: '{{speed}}倍',
    loading: '正在加载录像…',
    failed: '录像播放失败',
    ended: '录像已播放完毕',
  },
  timeline: {
    label: '录像时间轴',
    zoomIn: '放大',
    zoomOut: '缩小',
    window: '显示范围：{{span}}',
    hint: '点击时间轴跳转播放，拖动平移，滚轮缩放',
    hours: '{{count}}小时',
    minutes: '{{count}}分钟',
    noSpans: '没有录像时段',
  },
  clip: {
    title: '导出片段',
    range: '片段范围',
    export: '导出',
    exporting: '正在导出…',
    download: '下载片段',
    maxLength: '片段最长 {{minutes}} 分钟',
    outside: '片段须在当前录像范围内',
    endBeforeStart: '结束时间须晚于开始时间',
    failed: '导出失败：{{message}}',
    tooMany: '您已有多个片段在排队或导出中，请等待其中一个完成后再导出',
    chooseRecording: '请先选择一段录像',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type ShorePlaybackTexts = Widen<typeof shorePlaybackZhCN>;

export const shorePlaybackEn: ShorePlaybackTexts = {
  menu: {
    video: 'Video playback',
  },
  page: {
    title: '{{name}} · video playback',
  },
  filter: {
    ship: 'Ship',
    allShips: 'All ships',
    channel: 'Channel',
    allChannels: 'All channels',
    time: 'Time range',
    search: 'Search',
    endBeforeStart: 'The end time must not be before the start time',
  },
  list: {
    title: 'Shore recordings',
    ship: 'Ship',
    channel: 'Channel',
    start: 'Start',
    end: 'End',
    duration: 'Duration',
    size: 'Size',
    empty: 'No shore recordings in the selected time range',
    total: '{{count}} recordings',
    loadFailed: 'Could not load the recordings',
  },
  player: {
    label: 'Shore recording player',
    choose: 'Choose a recording in the list or on the timeline to play it',
    recordedTime: 'Recorded time',
    play: 'Play',
    pause: 'Pause',
    speed: 'Speed',
    speedOption: '{{speed}}×',
    loading: 'Loading the recording…',
    failed: 'The recording could not be played',
    ended: 'End of the recording',
  },
  timeline: {
    label: 'Recording timeline',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
    window: 'Showing {{span}}',
    hint: 'Click the timeline to play from there, drag to move, scroll to zoom',
    hours: '{{count}} h',
    minutes: '{{count}} min',
    noSpans: 'No recorded spans',
  },
  clip: {
    title: 'Export a clip',
    range: 'Clip range',
    export: 'Export',
    exporting: 'Exporting…',
    download: 'Download the clip',
    maxLength: 'A clip may be at most {{minutes}} minutes long',
    outside: 'The clip must lie within the current recording',
    endBeforeStart: 'The end time must be after the start time',
    failed: 'Export failed: {{message}}',
    tooMany: 'You already have several clips waiting or being exported; wait for one to finish before exporting another',
    chooseRecording: 'Choose a recording first',
  },
};
