import type { ReactNode } from 'react';
import { ExclamationCircleOutline } from 'antd-mobile-icons';
import styles from '../mobile.module.css';

/** A whole-page message with an action (jump failed, displaced session). */
export function MessagePage({ title, description, children }: { title: string; description?: string; children?: ReactNode }) {
  return (
    <div className={styles.messagePage} role="alert">
      <ExclamationCircleOutline className={styles.messageIcon} />
      <h1 className={styles.messageTitle}>{title}</h1>
      {description ? <p className={styles.muted}>{description}</p> : null}
      {children}
    </div>
  );
}
