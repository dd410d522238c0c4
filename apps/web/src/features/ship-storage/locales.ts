/** Texts of the ship recorder's storage notices, merged under `shipStorage`. */
export const shipStorageZhCN = {
  /** A toast when a ship's recorder cannot hold the days asked (figures at the recent recording rate). */
  short: '{{ship}}：船端录像磁盘按近期录像速率约可保存 {{days}} 天，少于要求的 {{keep}} 天（可用 {{allowed}}，每天约 {{perDay}}）。最早的录像将提前删除，录像不会停止。',
};

export const shipStorageEn: { [K in keyof typeof shipStorageZhCN]: string } = {
  short: '{{ship}}: at its recent rate, the ship recorder’s disk holds about {{days}} days of recordings, fewer than the {{keep}} days asked ({{allowed}} allowed, about {{perDay}} a day). The oldest recordings will be deleted sooner; recording does not stop.',
};
