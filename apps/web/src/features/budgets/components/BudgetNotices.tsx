import { useEffect, useMemo, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useBudgetTranslation as useTranslation } from '../texts.ts';
import { dest, type BudgetNoticeMessage, type Ship } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { realtime } from '../../../lib/realtime/index.ts';
import { useMessage } from '../../../shared/message.tsx';

/**
 * Tells the operator when a ship they see reaches 80 % or 100 % of a data budget: the server sends
 * each once per period on `/budget/{shipName}`; this shows it as a toast (in the page's language)
 * and refreshes the figures.
 */
export function BudgetNotices({ ships }: { ships: readonly Ship[] }) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const queryClient = useQueryClient();
  const names = useMemo(() => [...new Set(ships.map((s) => s.name))].sort().join('\u0000'), [ships]);
  const shown = useRef(new Set<string>());
  const latest = useRef({ t, language: i18n.language, message });
  latest.current = { t, language: i18n.language, message };

  useEffect(() => {
    if (!names) return undefined;
    const offs = names.split('\u0000').map((name) => {
      const destination = dest.budget(name);
      return realtime.store.subscribe(destination, () => {
        const notice = realtime.store.getSnapshot(destination) as BudgetNoticeMessage | undefined;
        if (!notice) return;
        const key = `${notice.shipId}/${notice.purpose}/${notice.periodKey}/${notice.level}`;
        if (shown.current.has(key)) return;
        shown.current.add(key);
        const { t: tr, language, message: api } = latest.current;
        const text = tr(notice.level === 100 ? 'budgets.notice.full' : 'budgets.notice.warn', {
          ship: notice.shipName,
          purpose: tr(`budgets.purpose.${notice.purpose}`),
          period: tr(`budgets.notice.${notice.period}`),
          used: formatBytes(notice.usedBytes, language),
          cap: formatBytes(notice.capBytes, language),
          // The link's policy says so: "Pictures only · FBB link policy".
          policy: notice.policyLink
            ? tr('budgets.policyFromLink', { policy: tr(`budgets.policy.${notice.policy}`), link: tr(`cellDefinition.link.${notice.policyLink}`) })
            : tr(`budgets.policy.${notice.policy}`),
        });
        void api.open({ type: notice.level === 100 ? 'error' : 'warning', content: <span data-testid="budget-notice">{text}</span>, duration: 10 });
        void queryClient.invalidateQueries({ queryKey: ['budgets'] });
      });
    });
    return () => {
      for (const off of offs) off();
    };
  }, [names, queryClient]);
  return null;
}
