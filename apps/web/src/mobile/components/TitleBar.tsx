import { useState } from 'react';
import { ActionSheet, Button, NavBar, Popup } from 'antd-mobile';
import { ArrowsAltOutline, UserOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useLogout } from '../../features/session/index.ts';
import { useSessionUser } from '../../features/session/index.ts';
import { useDocumentFullscreen } from '../hooks/useDocumentFullscreen.ts';
import { readShowsLogout } from '../is-jump.ts';
import { IS_IOS } from '../platform.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import styles from '../mobile.module.css';

/** A gear, drawn here: antd-mobile-icons' SetOutline costs 3.6 KB gzip of the phone's 250 KB budget. */
function GearIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden focusable="false">
      <circle cx="12" cy="12" r="3.2" />
      <path d="M12 2.5v2.6M12 18.9v2.6M2.5 12h2.6M18.9 12h2.6M5.3 5.3l1.8 1.8M16.9 16.9l1.8 1.8M5.3 18.7l1.8-1.8M16.9 7.1l1.8-1.8" strokeLinecap="round" />
      <circle cx="12" cy="12" r="6.6" />
    </svg>
  );
}

export interface TitleBarProps {
  /** Decided once per page load (platform.ts); a prop so tests can show both. */
  ios?: boolean;
}

/**
 * Spec §2 mobile title bar: the product title; a fullscreen button unless on iOS (no Fullscreen
 * API for pages there) or already fullscreen; a person icon opening the logout action sheet only
 * when the session came through /jump (isjump=1, spec §6); and a settings icon for everyone, whose
 * sheet changes the language (and offers logout where the spec allows it: with isjump=1), so an
 * operator signed in normally is not left with the sign-in page's switch only.
 */
export function TitleBar({ ios = IS_IOS }: TitleBarProps) {
  const { t } = useTranslation();
  const fullscreen = useDocumentFullscreen();
  const logout = useLogout();
  const user = useSessionUser();
  const [sheetOpen, setSheetOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const showFullscreen = !ios && fullscreen.supported && !fullscreen.active;
  const showPerson = readShowsLogout();

  const right = (
    <div className={styles.titleActions}>
      {showFullscreen ? (
        <button type="button" className={styles.iconButton} aria-label={t('mobile.titleBar.fullscreen')} onClick={fullscreen.enter}>
          <ArrowsAltOutline />
        </button>
      ) : null}
      <button type="button" className={styles.iconButton} aria-label={t('mobile.titleBar.settings')} onClick={() => setSettingsOpen(true)}>
        <GearIcon />
      </button>
      {showPerson ? (
        <button type="button" className={styles.iconButton} aria-label={t('mobile.titleBar.user')} onClick={() => setSheetOpen(true)}>
          <UserOutline />
        </button>
      ) : null}
    </div>
  );

  return (
    <>
      <NavBar className={styles.titleBar} back={null} right={right}>
        <h1 className={styles.title}>{t('app.title')}</h1>
      </NavBar>
      <Popup visible={settingsOpen} onMaskClick={() => setSettingsOpen(false)} onClose={() => setSettingsOpen(false)} bodyStyle={{ borderRadius: '12px 12px 0 0' }}>
        <div role="dialog" aria-label={t('mobile.titleBar.settings')} className={styles.settingsSheet}>
          <div className={styles.settingsTitle}>{t('mobile.titleBar.settings')}</div>
          {user ? <div className={styles.settingsUser}>{user.displayName}</div> : null}
          <div className={styles.settingsLabel}>{t('mobile.titleBar.language')}</div>
          <LanguageSwitch />
          {showPerson ? (
            <Button block color="danger" fill="outline" onClick={() => void logout()}>
              {t('mobile.titleBar.logout')}
            </Button>
          ) : null}
          <Button block fill="none" onClick={() => setSettingsOpen(false)}>
            {t('mobile.titleBar.close')}
          </Button>
        </div>
      </Popup>
      {showPerson ? (
        <ActionSheet
          visible={sheetOpen}
          extra={user ? `${user.displayName} · ${t('mobile.titleBar.logoutConfirm')}` : t('mobile.titleBar.logoutConfirm')}
          cancelText={t('mobile.titleBar.cancel')}
          actions={[{ key: 'logout', text: t('mobile.titleBar.logout'), danger: true, onClick: () => void logout() }]}
          closeOnAction
          onClose={() => setSheetOpen(false)}
        />
      ) : null}
    </>
  );
}
