/**
 * Texts of the desktop shell (header, menus, themes) merged into the
 * app's locales under `shell` (see ../i18n/locales). zh-CN is the source of the keys.
 */
export const shellZhCN = {
  menu: {
    mainPreview: '主预览',
    shorePlayback: '岸端回放',
    /** Spec §2/§6: organisation njzsz calls shore playback near-end playback. */
    nearEndPlayback: '近端回放',
  },
  settings: '设置',
  theme: {
    label: '主题',
    day: '白天模式',
    night: '夜间模式',
  },
  role: '角色：{{role}}',
  roleManager: '管理员',
  roleOperator: '操作员',
  user: '用户',
  logout: '退出登录',
  collapseSidebar: '收起侧边栏',
  expandSidebar: '展开侧边栏',
  statistics: '统计信息',
  /** The arrows of a list's pages. */
  pagination: {
    previous: '上一页',
    next: '下一页',
    previousPages: '向前 5 页',
    nextPages: '向后 5 页',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const shellEn: Widen<typeof shellZhCN> = {
  menu: {
    mainPreview: 'Main preview',
    shorePlayback: 'Shore playback',
    nearEndPlayback: 'Near-end playback',
  },
  settings: 'Settings',
  theme: {
    label: 'Theme',
    day: 'Day mode',
    night: 'Night mode',
  },
  role: 'Role: {{role}}',
  roleManager: 'Manager',
  roleOperator: 'Operator',
  user: 'User',
  logout: 'Logout',
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  statistics: 'Statistics',
  pagination: {
    previous: 'Previous page',
    next: 'Next page',
    previousPages: 'Previous 5 pages',
    nextPages: 'Next 5 pages',
  },
};
