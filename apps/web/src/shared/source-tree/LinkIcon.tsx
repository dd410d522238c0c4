import type { ReactNode } from 'react';
import {
  ApiOutlined,
  CloudOutlined,
  DisconnectOutlined,
  GlobalOutlined,
  QuestionCircleOutlined,
  RocketOutlined,
  SignalFilled,
  SyncOutlined,
  ThunderboltOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { signalColour, type LinkType } from '@ship-cctv/protocol';
import { toKnownLink } from '../../lib/realtime/index.ts';
import { SIGNAL_CSS } from '../../lib/signal-colours.ts';

/** One distinct icon per link value of spec §4. */
const LINK_ICONS: Record<LinkType, ReactNode> = {
  VSAT: <GlobalOutlined />,
  FBB: <CloudOutlined />,
  FOURTHG: <SignalFilled />,
  OFFLINE: <DisconnectOutlined />,
  DEFAULT: <ApiOutlined />,
  AUTO: <SyncOutlined />,
  UNKNOWN: <QuestionCircleOutlined />,
  IRIDIUM: <RocketOutlined />,
  IRIDIUM1: <ThunderboltOutlined />,
  FX: <WifiOutlined />,
};

/** Spec §4 colour names as CSS colours; white gets an outline (see SignalDot) to show on white. */

export function LinkIcon({ linkType }: { linkType: string }) {
  const { t } = useTranslation();
  const known = toKnownLink(linkType);
  const title = known === 'UNKNOWN' && linkType !== 'UNKNOWN' ? `${t('sourceTree.link.UNKNOWN')} (${linkType})` : t(`sourceTree.link.${known}`);
  return (
    <span role="img" aria-label={title} title={title} data-link={linkType} style={{ display: 'inline-flex' }}>
      {LINK_ICONS[known]}
    </span>
  );
}

export function SignalDot({ quality }: { quality: number }) {
  const { t } = useTranslation();
  const colour = signalColour(quality);
  const title = colour === 'white' ? t('sourceTree.signalUnknown') : t('sourceTree.signal', { quality });
  return (
    <span
      role="img"
      aria-label={title}
      title={title}
      data-signal={colour}
      style={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: '50%',
        background: SIGNAL_CSS[colour],
        boxShadow: '0 0 0 1px rgba(0, 0, 0, 0.35)',
        flex: 'none',
      }}
    />
  );
}
