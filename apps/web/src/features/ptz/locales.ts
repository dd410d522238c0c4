/**
 * Texts of PTZ control (the pad and presets on a PTZ cell), merged under `ptz`. zh-CN is the source
 * of the keys; en must have the same shape. Spec §8: preset point set/delete succeeded or failed.
 */
export const ptzZhCN = {
  pad: '云台控制',
  control: {
    up: '上',
    down: '下',
    left: '左',
    right: '右',
    upLeft: '左上',
    upRight: '右上',
    downLeft: '左下',
    downRight: '右下',
    zoomIn: '放大',
    zoomOut: '缩小',
  },
  movedBy: '{{name}} 正在控制',
  presets: {
    open: '预置点',
    empty: '没有预置点',
    name: '预置点名称',
    set: '设置预置点',
    goto: '转到',
    delete: '删除',
    deleteConfirm: '删除预置点“{{name}}”？',
    setOk: '预置点设置成功',
    setFailed: '预置点设置失败',
    deleteOk: '预置点删除成功',
    deleteFailed: '预置点删除失败',
    gotoFailed: '转到预置点失败',
    notFound: '预置点不存在',
  },
  error: {
    offline: '船舶离线，无法控制云台',
    notPtz: '该摄像机不是云台摄像机',
    unsupported: '船端不支持云台控制',
    failed: '云台控制失败：{{message}}',
  },
};

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const ptzEn: Widen<typeof ptzZhCN> = {
  pad: 'PTZ control',
  control: {
    up: 'Up',
    down: 'Down',
    left: 'Left',
    right: 'Right',
    upLeft: 'Up left',
    upRight: 'Up right',
    downLeft: 'Down left',
    downRight: 'Down right',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
  },
  movedBy: 'Moved by {{name}}',
  presets: {
    open: 'Presets',
    empty: 'No presets',
    name: 'Preset name',
    set: 'Set preset',
    goto: 'Go to',
    delete: 'Delete',
    deleteConfirm: 'Delete preset “{{name}}”?',
    setOk: 'Preset point set',
    setFailed: 'Setting the preset point failed',
    deleteOk: 'Preset point deleted',
    deleteFailed: 'Deleting the preset point failed',
    gotoFailed: 'Going to the preset failed',
    notFound: 'The preset does not exist',
  },
  error: {
    offline: 'The ship is offline: the camera cannot be steered',
    notPtz: 'This camera is not a PTZ camera',
    unsupported: "The ship's agent does not steer cameras",
    failed: 'PTZ control failed: {{message}}',
  },
};
