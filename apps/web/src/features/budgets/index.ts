/**
 * The public face of data budgets: the ship's badge in the source tree, the statistics panel's
 * table with its dialogs, and the notices at 80 % and 100 %. The app shell loads it lazily.
 */
export * from './components/ShipBudgetBadge.tsx';
export * from './components/BudgetTable.tsx';
export * from './components/BudgetNotices.tsx';
