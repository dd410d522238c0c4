import { lazy, Suspense, useEffect } from 'react';
import { BellOutline, ClockCircleOutline, VideoOutline } from 'antd-mobile-icons';
import { NavLink, Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '../../shared/runtime-config.tsx';
import { useHeartbeat } from '../../features/session/index.ts';
import { realtime } from '../../lib/realtime/index.ts';
import { MOBILE_EVENTS, MOBILE_HOME, MOBILE_PLAYBACK } from '../routes.ts';
import styles from '../mobile.module.css';

// The events' toasts come with their own chunk (and texts): the phone's first screen stays within its size.
const MobileEventNotices = lazy(() => import('./MobileEventNotices.tsx'));

const tabClass = ({ isActive }: { isActive: boolean }) => (isActive ? `${styles.tab} ${styles.tabActive}` : styles.tab);

/**
 * The signed-in phone frame: the routed screen over the bottom tab bar (live, ship-end playback, events).
 * Mounting it means a validated session, so it runs the heartbeat and opens the tab's STOMP
 * connection, as the desktop shell does; sign-out closes it. New events of the chosen
 * organisation's ships toast on any tab.
 */
export function MobileShell() {
  const { t } = useTranslation();
  const { stompPath, heartbeatMs } = useRuntimeConfig();
  useHeartbeat(heartbeatMs);

  useEffect(() => {
    realtime.start(stompPath);
  }, [stompPath]);

  return (
    <div className={styles.shell}>
      <Suspense fallback={null}>
        <MobileEventNotices />
      </Suspense>
      <main className={styles.main}>
        <Outlet />
      </main>
      {/* Links, not buttons: each tab is a route (spec §2), so it can be opened and shared as one. */}
      <nav className={styles.tabBar} aria-label={t('mobile.tabs.label')}>
        <NavLink to={MOBILE_HOME} className={tabClass}>
          <VideoOutline className={styles.tabIcon} />
          <span>{t('mobile.tabs.live')}</span>
        </NavLink>
        <NavLink to={MOBILE_PLAYBACK} className={tabClass}>
          <ClockCircleOutline className={styles.tabIcon} />
          <span>{t('mobile.tabs.playback')}</span>
        </NavLink>
        <NavLink to={MOBILE_EVENTS} className={tabClass}>
          <BellOutline className={styles.tabIcon} />
          <span>{t('mobile.tabs.events')}</span>
        </NavLink>
      </nav>
    </div>
  );
}
