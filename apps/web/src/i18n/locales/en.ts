import type { Messages } from '../messages.ts';

import { liveEn } from '../../features/live/locales.ts';
import { shellEn } from '../../app/locales.ts';
import { fleetEn } from '../../features/fleet/locales.ts';
import { sessionEn } from '../../features/session/locales.ts';
import { shorePlaybackEn } from '../../features/shore-playback/locales.ts';
import { playbackEn } from '../../features/playback/locales.ts';
import { mobileEn } from '../../mobile/locales.ts';
import { playerCellEn } from '../../shared/player-cell/locales.ts';
import { cellDefinitionEn } from '../../shared/cell-definition/locales.ts';
import { picturesEn } from '../../features/pictures/locales.ts';
import { sourceTreeEn } from '../../shared/source-tree/locales.ts';
import { shipFailureEn } from '../../shared/ship-failure/locales.ts';
import { talkEn } from '../../features/talk/locales.ts';
import { ptzEn } from '../../features/ptz/locales.ts';
import { shipStorageEn } from '../../features/ship-storage/locales.ts';
import { recordingGapsEn } from '../../shared/recording-gaps/locales.ts';

export const en: Messages = {
  live: liveEn,
  shell: shellEn,
  session: sessionEn,
  fleet: fleetEn,
  shipStorage: shipStorageEn,
  /** Parts every screen shares (src/shared): a player cell, the source tree. */
  playerCell: playerCellEn,
  cellDefinition: cellDefinitionEn,
  sourceTree: sourceTreeEn,
  recordingGaps: recordingGapsEn,
  shipFailure: shipFailureEn,
  shorePlayback: shorePlaybackEn,
  playback: playbackEn,
  pictures: picturesEn,
  // The rest of the carousel's texts load with its screen (features/carousel/texts.ts).
  carousel: { menu: 'Carousel' },
  // The settings menu's item; the screen's texts load with it (features/link-policies/texts.ts).
  linkPolicies: { menu: 'Link policies' },
  // The menu items; the screens' texts load with them (features/events/texts.ts).
  events: { menu: 'Events', settingsMenu: 'Event detection' },
  talk: talkEn,
  ptz: ptzEn,
  mobile: mobileEn,
  app: {
    title: 'Ship Remote CCTV Monitoring',
    version: 'Version {{version}}',
  },
  requests: {
    tooManyUser: 'Too many requests from you; try again in {{seconds}} s',
    tooManyShip: 'The ship has too many requests right now; try again in {{seconds}} s',
  },
  language: {
    label: 'Language',
    zhCN: '中文',
    en: 'English',
  },
  signIn: {
    title: 'Sign in',
    username: 'User name',
    usernamePrompt: 'Enter your user name',
    password: 'Password',
    passwordPrompt: 'Enter your password',
    submit: 'Sign in',
    signedInAs: 'Signed in as {{name}}',
    errors: {
      wrongCredentials: 'Wrong user name or password',
      lockedOut: 'Too many failed sign-in attempts; the account is locked for a while. Try again later',
      unreachable: 'Cannot reach the server. Check the network and try again',
      failed: 'Sign-in failed: {{message}} ({{code}})',
    },
  },
};
