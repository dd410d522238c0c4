/** Texts of stills mode, merged under `stills` (they load with the feature's code: texts.ts). */
export const stillsZhCN = {
  /** The cell's mode, on the picture. */
  mode: '每 {{seconds}} 秒一张图片',
  modeBudget: '仅图片：直播流量预算已用完',
  why: '{{link}} 链路按策略显示图片，不传视频',
  ageSeconds: '{{seconds}} 秒前',
  ageMinutes: '{{minutes}} 分钟前',
  ageHours: '{{hours}} 小时前',
  cost: '≈ {{size}}/小时',
  costHint: '估算：最近 {{count}} 张图片的平均大小 × 每小时 {{shots}} 张',
  toVideo: '切换为视频',
  toStills: '切换为图片模式',
  first: '正在获取第一张图片…',
  taking: '正在拍摄新图片…',
  crossing: '新图片传输中…',
  crossingPercent: '新图片传输中 {{percent}}%',
  failed: '拍摄失败：{{reason}}',
  /** Why the ship could not take it: the camera's own failure (asking the ship failing is worded in shared/ship-failure). */
  failure: {
    cameraOffline: '摄像机离线',
  },
  offline: '船舶离线，显示最后一张图片',
  picturesBudget: '图片流量预算已用完，暂停更新',
  noPicture: '暂无图片',
  error: '无法获取图片：{{message}}',
};

export const stillsEn: typeof stillsZhCN = {
  mode: 'Stills every {{seconds}} s',
  modeBudget: 'Pictures only: the live data budget is used up',
  why: 'The {{link}} link shows pictures instead of video (link policy)',
  ageSeconds: '{{seconds}} s ago',
  ageMinutes: '{{minutes}} min ago',
  ageHours: '{{hours}} h ago',
  cost: '≈ {{size}}/h',
  costHint: 'Estimate: average size of the last {{count}} pictures × {{shots}} pictures an hour',
  toVideo: 'Switch to video',
  toStills: 'Switch to stills',
  first: 'Getting the first picture…',
  taking: 'Taking a new picture…',
  crossing: 'New picture on its way…',
  crossingPercent: 'New picture on its way {{percent}}%',
  failed: 'No new picture: {{reason}}',
  failure: {
    cameraOffline: 'camera offline',
  },
  offline: 'Ship offline: the last picture',
  picturesBudget: 'Pictures budget used up: no new stills',
  noPicture: 'No picture yet',
  error: 'Could not get the picture: {{message}}',
};
