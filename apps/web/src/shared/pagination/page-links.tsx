import { cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';
import type { PaginationProps } from 'antd';
import { useTranslation } from 'react-i18next';

const LABELS = { prev: 'previous', next: 'next', 'jump-prev': 'previousPages', 'jump-next': 'nextPages' } as const;

/**
 * A list's page arrows (previous, next, five back, five on) carry only an icon: this gives each an
 * accessible name and a tooltip in the page's language ("上一页" / "Previous page"). Pass it as a
 * Pagination's (or a Table pagination's) `itemRender`.
 */
export function usePageLinks(): NonNullable<PaginationProps['itemRender']> {
  const { t } = useTranslation();
  return (_page, type, element: ReactNode) => {
    if (type === 'page' || !isValidElement(element)) return element;
    const label = t(`shell.pagination.${LABELS[type]}`);
    return cloneElement(element as ReactElement<{ 'aria-label'?: string; title?: string }>, { 'aria-label': label, title: label });
  };
}
