/**
 * Why asking a ship failed, in both languages, merged under `shipFailure`: the one wording of the
 * server's ship-failure reasons (the error envelope's `reason`), for any feature that asks a ship
 * and words the failure as part of its own text ("PTZ control failed: the ship did not answer").
 * A feature with a wording of its own for a reason (PTZ's "The ship is offline: the camera cannot
 * be steered") keeps it. zh-CN is the source of the keys; en must have the same shape.
 */
export const shipFailureZhCN = {
  offline: '船舶离线',
  timeout: '船舶未响应',
  busy: '船舶正忙',
  unsupported: '船端不支持此功能',
};

export const shipFailureEn: typeof shipFailureZhCN = {
  offline: 'ship offline',
  timeout: 'the ship did not answer',
  busy: 'the ship is busy',
  unsupported: "the ship's agent does not support this",
};
