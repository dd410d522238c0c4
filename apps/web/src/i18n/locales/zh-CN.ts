/**
 * Chinese texts: the source of the key types (see ../messages.ts). The spec's Chinese texts are
 * used verbatim. Every key added here must be added to en.ts too (type error and unit test).
 */
import { liveZhCN } from '../../features/live/locales.ts';
import { shellZhCN } from '../../app/locales.ts';
import { fleetZhCN } from '../../features/fleet/locales.ts';
import { sessionZhCN } from '../../features/session/locales.ts';
import { shorePlaybackZhCN } from '../../features/shore-playback/locales.ts';
import { playbackZhCN } from '../../features/playback/locales.ts';
import { mobileZhCN } from '../../mobile/locales.ts';
import { playerCellZhCN } from '../../shared/player-cell/locales.ts';
import { cellDefinitionZhCN } from '../../shared/cell-definition/locales.ts';
import { picturesZhCN } from '../../features/pictures/locales.ts';
import { sourceTreeZhCN } from '../../shared/source-tree/locales.ts';
import { shipFailureZhCN } from '../../shared/ship-failure/locales.ts';
import { talkZhCN } from '../../features/talk/locales.ts';
import { ptzZhCN } from '../../features/ptz/locales.ts';
import { shipStorageZhCN } from '../../features/ship-storage/locales.ts';
import { recordingGapsZhCN } from '../../shared/recording-gaps/locales.ts';

export const zhCN = {
  /** The play grid's texts live beside it (features/live/locales.ts). */
  live: liveZhCN,
  /** Shell, session screens and source tree: texts beside their features too. */
  shell: shellZhCN,
  session: sessionZhCN,
  fleet: fleetZhCN,
  shipStorage: shipStorageZhCN,
  /** Parts every screen shares (src/shared): a player cell, the source tree. */
  playerCell: playerCellZhCN,
  cellDefinition: cellDefinitionZhCN,
  sourceTree: sourceTreeZhCN,
  /** Why a recording holds nothing at times, on both playback timelines. */
  recordingGaps: recordingGapsZhCN,
  /** Why asking a ship failed (the server's reason), worded once for every feature. */
  shipFailure: shipFailureZhCN,
  /** Shore video playback (features/shore-playback). */
  shorePlayback: shorePlaybackZhCN,
  playback: playbackZhCN,
  pictures: picturesZhCN,
  // The rest of the carousel's texts load with its screen (features/carousel/texts.ts).
  carousel: { menu: '轮播' },
  // The settings menu's item; the screen's texts load with it (features/link-policies/texts.ts).
  linkPolicies: { menu: '链路策略' },
  // The menu items; the screens' texts load with them (features/events/texts.ts).
  events: { menu: '事件', settingsMenu: '事件检测' },
  talk: talkZhCN,
  ptz: ptzZhCN,
  /** The mobile app (src/mobile). */
  mobile: mobileZhCN,
  app: {
    title: '船舶远程视频监控',
    version: '版本 {{version}}',
  },
  /** A server's 429 for work that reaches a ship (snapshots, ship queries, PTZ, stills). */
  requests: {
    tooManyUser: '您的请求过于频繁，请 {{seconds}} 秒后再试',
    tooManyShip: '此船当前请求过多，请 {{seconds}} 秒后再试',
  },
  language: {
    label: '语言',
    zhCN: '中文',
    en: 'English',
  },
  signIn: {
    title: '登录',
    username: '用户名',
    usernamePrompt: '请输入用户名',
    password: '密码',
    passwordPrompt: '请输入密码',
    submit: '登录',
    signedInAs: '已登录：{{name}}',
    errors: {
      wrongCredentials: '用户名或密码错误',
      lockedOut: '登录失败次数过多，账号已临时锁定，请稍后再试',
      unreachable: '无法连接服务器，请检查网络后重试',
      failed: '登录失败：{{message}}（{{code}}）',
    },
  },
} as const;
