import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { DataBudgetStatistics, DataBudgetUpdate, PurposeUse, ShipBudgetUse } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { BudgetTable } from './BudgetTable.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const ORG = { id: 'blueocean', displayName: 'Blue Ocean Shipping' };
const MB = 1_000_000;
const none: PurposeUse = { dayBytes: 0, monthBytes: 0, dayCapBytes: null, monthCapBytes: null, level: 0 };
const full: PurposeUse = { dayBytes: 2 * MB, monthBytes: 2 * MB, dayCapBytes: MB, monthCapBytes: null, level: 100 };

const ship = (id: string, name: string, change: Partial<ShipBudgetUse>): ShipBudgetUse => ({
  shipId: id,
  shipName: name,
  orgId: ORG.id,
  timeZone: 'Asia/Singapore',
  day: '2026-11-30',
  month: '2026-11',
  source: 'ship',
  policy: 'lowest',
  policyChoice: 'lowest',
  use: { live: full, playback: none, pictures: none, backfill: none, events: none },
  live: 'lowest',
  ...change,
});

function renderTable(stats: DataBudgetStatistics, language: 'en' | 'zh-CN' = 'en') {
  vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => {
    if (path === `/cctv/statistics/dataBudget/${ORG.id}`) return structuredClone(stats) as never;
    if (path === '/cctv/databudget/findByShipId') return null as never;
    throw new Error(`unexpected GET ${path}`);
  });
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <BudgetTable org={ORG} />
    </AppProviders>,
  );
}

const policyOf = async (shipId: string) => {
  await waitFor(() => expect(document.querySelector(`[data-budget-row="${shipId}"]`)).not.toBeNull());
  const row = document.querySelector(`[data-budget-row="${shipId}"]`)?.closest('tr');
  return row?.querySelector('[data-budget-policy]')?.textContent;
};

describe('BudgetTable: the policy a used-up live budget applies (issue 19 item 4)', () => {
  const stats: DataBudgetStatistics = {
    orgId: ORG.id,
    defaults: [],
    canEdit: true,
    ships: [
      ship('S1001', 'OCEAN STAR', { policy: 'stills', policyChoice: 'link', policyLink: 'FBB', live: 'stills' }),
      ship('S1002', 'SEA PEARL', {}),
      ship('S1003', 'FAR VOYAGER', { source: 'none', policy: null, policyChoice: null, use: { live: none, playback: none, pictures: none, backfill: none, events: none }, live: 'normal' }),
    ],
  };

  it('says when it comes from the link the ship is on, and names the link', async () => {
    renderTable(stats);
    expect(await policyOf('S1001')).toBe('When used up: Pictures only (no live video) · FBB link policy');
    expect(await policyOf('S1002')).toBe('When used up: Lowest definition only');
    // No budget, no policy line.
    expect(await policyOf('S1003')).toBeUndefined();
  });

  it('says it in Chinese', async () => {
    renderTable(stats, 'zh-CN');
    expect(await policyOf('S1001')).toBe('用完后：仅图片（禁止实时视频） · FBB 链路策略');
  });

  it('offers following the link as the first choice, and a new budget starts from it', async () => {
    renderTable(stats);
    const post = vi.spyOn(apiClient, 'post').mockResolvedValue({ orgId: ORG.id, policy: 'link', caps: {}, updatedBy: 'demo', updatedAt: 0 } as never);
    await policyOf('S1003');
    const row = document.querySelector('[data-budget-row="S1003"]')?.closest('tr') as HTMLElement;
    fireEvent.click(row.querySelector('button') as HTMLButtonElement);
    const choice = await screen.findByLabelText("The policy of the ship's current link");
    expect((choice as HTMLInputElement).checked).toBe(true);
    fireEvent.change(screen.getByLabelText('Live · Per day (MB)'), { target: { value: '5' } });
    fireEvent.click(screen.getByText('Save', { selector: 'button, button *' }));
    await waitFor(() => expect(post).toHaveBeenCalled());
    expect(post.mock.calls[0]?.[0]).toBe('/cctv/databudget/update');
    expect(post.mock.calls[0]?.[1] as DataBudgetUpdate).toMatchObject({ orgId: ORG.id, shipId: 'S1003', policy: 'link', caps: { live: { dayMb: 5 } } });
  });
});
