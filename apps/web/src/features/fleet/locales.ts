/** Texts of the statistics panel and link usage, merged under `fleet`. */
export const fleetZhCN = {
  stats: {
    title: '统计信息',
    close: '关闭',
    ships: '船舶',
    channels: '通道',
    online: '在线',
    offline: '离线',
    chooseOrganisation: '请先选择组织',
    loadFailed: '统计信息加载失败',
    links: '画面所在船舶的卫星链路',
    linksHint: '上行（船到岸）视频流量：实时 + 回放，自服务器启动起；速率为最近 {{seconds}} 秒',
    ship: '船舶',
    uplinkBytes: '上行流量',
    uplinkRate: '上行速率',
    total: '合计',
    measuring: '测量中',
    notConnected: '未连接',
    noOpenCells: '播放通道后，这里显示其船舶链路的流量',
    linksFailed: '链路流量加载失败',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

export const fleetEn: Widen<typeof fleetZhCN> = {
  stats: {
    title: 'Statistics',
    close: 'Close',
    ships: 'Ships',
    channels: 'Channels',
    online: 'Online',
    offline: 'Offline',
    chooseOrganisation: 'Choose an organisation first',
    loadFailed: 'Failed to load the statistics',
    links: 'Satellite links of the ships on screen',
    linksHint: 'Ship-to-shore video (live + playback) since the server started; rate over the last {{seconds}} s',
    ship: 'Ship',
    uplinkBytes: 'Uplink',
    uplinkRate: 'Uplink rate',
    total: 'Total',
    measuring: 'Measuring',
    notConnected: 'Not connected',
    noOpenCells: 'Play a channel to see what its ship’s link carries',
    linksFailed: 'Failed to load the link figures',
  },
};
