import { LinkOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { signalColour } from '@ship-cctv/protocol';
import { toKnownLink, useShipStatus } from '../../lib/realtime/index.ts';
import { SIGNAL_CSS } from '../../lib/signal-colours.ts';
import styles from '../mobile.module.css';


/** Short, touch-readable label of each link type beside the link icon. */
const LINK_SHORT: Record<ReturnType<typeof toKnownLink>, string> = {
  VSAT: 'VSAT',
  FBB: 'FBB',
  FOURTHG: '4G',
  OFFLINE: '—',
  DEFAULT: 'DEF',
  AUTO: 'AUTO',
  UNKNOWN: '?',
  IRIDIUM: 'IRD',
  IRIDIUM1: 'IRD1',
  FX: 'FX',
};

/** A ship's link-type icon and signal colour (spec §2 ship picker, §4), live from /shipStatus. */
export function ShipLink({ shipName }: { shipName: string }) {
  const { t } = useTranslation();
  const { linkType, quality } = useShipStatus(shipName);
  const known = toKnownLink(linkType);
  const linkTitle = known === 'UNKNOWN' && linkType !== 'UNKNOWN' ? `${t('sourceTree.link.UNKNOWN')} (${linkType})` : t(`sourceTree.link.${known}`);
  const colour = signalColour(quality);
  const signalTitle = colour === 'white' ? t('sourceTree.signalUnknown') : t('sourceTree.signal', { quality });
  return (
    <span className={styles.shipLink}>
      <span role="img" aria-label={linkTitle} title={linkTitle} data-link={linkType} className={styles.linkIcon} data-offline={known === 'OFFLINE'}>
        <LinkOutline />
        <small>{LINK_SHORT[known]}</small>
      </span>
      <span role="img" aria-label={signalTitle} title={signalTitle} data-signal={colour} className={styles.signalDot} style={{ background: SIGNAL_CSS[colour] }} />
    </span>
  );
}
