/**
 * Texts of talkback, merged under `talk`. zh-CN is the source of the keys; en must have the same
 * shape. Spec §8 meanings: the talkback is occupied (对讲被占用), the microphone is refused, missing
 * or unsupported.
 */
export const talkZhCN = {
  button: '对讲',
  hint: '按住说话；单击保持对讲，再次单击结束',
  starting: '正在接通对讲…',
  talking: '正在对讲',
  stop: '结束对讲',
  remaining: '{{seconds}} 秒后结束对讲',
  level: '话筒音量',
  problem: {
    occupied: '对讲被占用（{{holder}} 正在对讲）',
    occupiedUnknown: '对讲被占用',
    micDenied: '麦克风被拒绝：请在浏览器中允许使用麦克风',
    micMissing: '未找到麦克风',
    unsupported: '此浏览器不支持对讲（无法使用麦克风或音频编码）',
    failed: '对讲失败：{{message}}',
    shipOffline: '船舶离线，无法对讲',
    talkOff: '该船未开启对讲',
  },
  ended: {
    maxDuration: '已达到对讲最长时间，对讲结束',
    shipOffline: '船舶链路已断开，对讲结束',
    failed: '对讲中断：{{message}}',
    connectionLost: '与服务器的连接断开，对讲结束',
    signedOut: '已退出登录，对讲结束',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const talkEn: Widen<typeof talkZhCN> = {
  button: 'Talk',
  hint: 'Hold to talk; click to keep talking, click again to stop',
  starting: 'Connecting the talkback…',
  talking: 'Talking',
  stop: 'Stop talking',
  remaining: 'The talk ends in {{seconds}} s',
  level: 'Microphone level',
  problem: {
    occupied: 'The talkback is occupied ({{holder}} is talking)',
    occupiedUnknown: 'The talkback is occupied',
    micDenied: 'Microphone refused: allow this site to use the microphone',
    micMissing: 'No microphone found',
    unsupported: 'This browser cannot talk back (no microphone access or audio encoder)',
    failed: 'Talk failed: {{message}}',
    shipOffline: 'The ship is offline: cannot talk',
    talkOff: 'Talkback is not enabled for this ship',
  },
  ended: {
    maxDuration: 'Maximum talk time reached: the talk ended',
    shipOffline: 'The ship link went down: the talk ended',
    failed: 'The talk was cut off: {{message}}',
    connectionLost: 'The connection to the server was lost: the talk ended',
    signedOut: 'Signed out: the talk ended',
  },
};
