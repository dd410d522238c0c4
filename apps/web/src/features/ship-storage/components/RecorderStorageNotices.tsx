import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dest, shipDisplayName, type Ship, type ShipStatusMessage } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { useMessage } from '../../../shared/message.tsx';

/**
 * Tells the operator when a ship they see cannot keep the days of recordings asked: its agent
 * reports, in the ship's status on `/shipStatus/{shipName}`, how many days its recorder's disk
 * holds at the recent rate. Shown as a toast (in the page's language) when a ship turns short, again
 * only after it was fine in between.
 */
export function RecorderStorageNotices({ ships }: { ships: readonly Ship[] }) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const names = useMemo(() => [...new Set(ships.map((s) => s.name))].sort().join('\u0000'), [ships]);
  // The ship as the tree shows it ("OCEAN STAR 蓝海之星"); its status destination goes by its name.
  const displayNames = useRef(new Map<string, string>());
  displayNames.current = new Map(ships.map((s) => [s.name, shipDisplayName(s) || s.name]));
  const shown = useRef(new Set<string>());
  const latest = useRef({ t, language: i18n.language, message });
  latest.current = { t, language: i18n.language, message };

  useEffect(() => {
    if (!names) return undefined;
    const offs = names.split('\u0000').map((name) => {
      const destination = dest.shipStatus(name);
      const check = () => {
        const storage = (realtime.store.getSnapshot(destination) as ShipStatusMessage | undefined)?.storage;
        if (!storage?.short || storage.holdsDays === null) {
          shown.current.delete(name);
          return;
        }
        if (shown.current.has(name)) return;
        shown.current.add(name);
        const { t: tr, language, message: api } = latest.current;
        const days = new Intl.NumberFormat(language, { maximumFractionDigits: storage.holdsDays < 10 ? 1 : 0 });
        const text = tr('shipStorage.short', {
          ship: displayNames.current.get(name) ?? name,
          days: days.format(storage.holdsDays),
          keep: new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(storage.keepDays),
          allowed: formatBytes(storage.allowedBytes, language),
          perDay: formatBytes(storage.bytesPerDay, language),
        });
        void api.open({ type: 'warning', content: <span data-testid="recorder-storage-notice">{text}</span>, duration: 15 });
      };
      const off = realtime.store.subscribe(destination, check);
      check();
      return off;
    });
    return () => {
      for (const off of offs) off();
    };
  }, [names]);
  return null;
}
