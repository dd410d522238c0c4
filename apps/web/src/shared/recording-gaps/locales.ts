/**
 * Texts of the gaps shown on the playback timelines (shore and ship), merged into the app's
 * locales under `recordingGaps`. zh-CN is the source of the keys; en must have the same shape.
 */
export const recordingGapsZhCN = {
  legend: '录像空缺原因',
  /** One line under a gap: its cause and its time. */
  tooltip: '{{cause}}：{{from}} — {{to}}',
  cause: {
    linkDown: '船岸链路中断',
    cameraSilent: '摄像头无画面',
    nothingOnShip: '船端也无录像',
    budgetHeld: '流量预算暂停直播',
    retention: '已超出保存期限',
    backfillPending: '正在从船端补传',
    diskFull: '船端磁盘已满',
    agentStopped: '船端程序未运行',
    unknown: '原因未知',
  },
  detail: {
    linkDown: '船舶与岸端的连接断开，岸端收不到视频',
    cameraSilent: '船舶在线，但摄像头没有发送画面或已离线',
    nothingOnShip: '船端录像机在这段时间也没有录像，无法补回',
    budgetHeld: '此船的直播流量预算已用完，直播被暂停',
    retention: '录像早于保存期限，已被删除',
    backfillPending: '船端有这段录像，正在传回岸端',
    diskFull: '船端磁盘空间不足，录像被提前删除或未能写入',
    agentStopped: '船端监控程序未运行，没有录像',
    unknown: '没有记录说明这段时间为何没有录像',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type RecordingGapsTexts = Widen<typeof recordingGapsZhCN>;

export const recordingGapsEn: RecordingGapsTexts = {
  legend: 'Why nothing is recorded',
  tooltip: '{{cause}}: {{from}} — {{to}}',
  cause: {
    linkDown: 'Ship link down',
    cameraSilent: 'Camera not sending',
    nothingOnShip: 'Nothing on the ship either',
    budgetHeld: 'Held by the data budget',
    retention: 'Past the retention period',
    backfillPending: 'Being fetched from the ship',
    diskFull: 'Ship disk full',
    agentStopped: 'Ship agent not running',
    unknown: 'Cause unknown',
  },
  detail: {
    linkDown: 'The ship’s link to shore was down: no video reached shore',
    cameraSilent: 'The ship was connected, but the camera sent no picture or was offline',
    nothingOnShip: 'The ship’s recorder has nothing for this time either: it cannot be fetched back',
    budgetHeld: 'The ship’s live data budget was used up and live video was held',
    retention: 'Older than the recordings are kept: deleted',
    backfillPending: 'The ship holds this time and it is on its way to shore',
    diskFull: 'The ship’s disk was full: recordings were deleted early or not written',
    agentStopped: 'The ship’s agent was not running: nothing was recorded',
    unknown: 'No record says why nothing was recorded then',
  },
};
