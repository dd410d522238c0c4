import { useState } from 'react';
import { Alert, Button, Flex, Space, Table, Tag, Typography } from 'antd';
import { useBudgetTranslation as useTranslation } from '../texts.ts';
import { BUDGET_PURPOSES, type PurposeUse, type ShipBudgetUse } from '@ship-cctv/protocol';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { useBudgetStatistics } from '../api/data-budget.ts';
import { levelColour } from '../budget-figures.ts';
import { BudgetDialog, type BudgetTarget } from './BudgetDialog.tsx';
import { OverrideDialog } from './OverrideDialog.tsx';
import { OverrideLog } from './OverrideLog.tsx';

/**
 * The statistics panel's data budgets: each ship's use today and this month against its caps (by
 * the ship's calendar), what new live views get, and for managers the settings; an operator
 * overrides a blocked ship here, with a reason.
 */
export function BudgetTable({ org }: { org: { id: string; displayName: string } }) {
  const { t, i18n } = useTranslation();
  const stats = useBudgetStatistics(org.id);
  const [editing, setEditing] = useState<BudgetTarget | undefined>();
  const [overriding, setOverriding] = useState<{ id: string; name: string } | undefined>();
  const [logOpen, setLogOpen] = useState(false);
  const size = (bytes: number | null) => (bytes === null ? t('budgets.noCap') : formatBytes(bytes, i18n.language));
  const figures = (use: ShipBudgetUse['use'], which: 'day' | 'month') => (
    <Flex vertical gap={0}>
      {BUDGET_PURPOSES.map((p) => {
        const u: PurposeUse = use[p];
        const used = which === 'day' ? u.dayBytes : u.monthBytes;
        const cap = which === 'day' ? u.dayCapBytes : u.monthCapBytes;
        if (cap === null && used === 0) return null;
        return (
          <Typography.Text key={p} style={{ fontSize: 12 }} data-budget-figure={`${p}-${which}`} type={cap !== null && used >= cap ? 'danger' : undefined}>
            {t(`budgets.purpose.${p}`)} {size(used)} / {size(cap)}
          </Typography.Text>
        );
      })}
    </Flex>
  );

  if (stats.isError) return <Alert type="error" showIcon title={t('budgets.loadFailed')} />;
  const data = stats.data;
  return (
    <div aria-label={t('budgets.title')} data-testid="budget-table">
      <Flex justify="space-between" align="center" style={{ marginBottom: 4 }}>
        <Space>
          <Typography.Text strong>{t('budgets.title')}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('budgets.hint')}
          </Typography.Text>
        </Space>
        <Space size={4}>
          <Button size="small" onClick={() => setLogOpen(true)}>
            {t('budgets.log.open')}
          </Button>
          {data?.canEdit ? (
            <Button size="small" onClick={() => setEditing({ orgId: org.id, orgName: org.displayName, current: data.defaults.find((d) => d.orgId === org.id) })}>
              {t('budgets.editDefault')}
            </Button>
          ) : null}
        </Space>
      </Flex>
      <Table<ShipBudgetUse>
        size="small"
        loading={!data}
        pagination={false}
        rowKey="shipId"
        dataSource={data?.ships ?? []}
        scroll={{ y: 240 }}
        columns={[
          { title: t('budgets.ship'), dataIndex: 'shipName', render: (name: string, row) => <span data-budget-row={row.shipId}>{name}</span> },
          { title: t('budgets.today'), render: (_, row) => figures(row.use, 'day') },
          { title: t('budgets.month'), render: (_, row) => figures(row.use, 'month') },
          {
            title: t('budgets.live'),
            render: (_, row) => (
              <Flex vertical gap={2}>
                <Tag color={row.live === 'normal' ? levelColour(row.use.live.level) : 'error'} data-budget-state={row.live}>
                  {t(`budgets.state.${row.live}`, { until: row.overrideUntil ? new Date(row.overrideUntil).toLocaleTimeString(i18n.language) : '' })}
                </Tag>
                <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                  {t(`budgets.source.${row.source}`)}
                </Typography.Text>
                {row.policy ? (
                  <Typography.Text type="secondary" style={{ fontSize: 11 }} data-budget-policy={row.policy} data-budget-policy-link={row.policyLink}>
                    {t('budgets.atFull', {
                      policy: row.policyLink
                        ? t('budgets.policyFromLink', { policy: t(`budgets.policy.${row.policy}`), link: t(`cellDefinition.link.${row.policyLink}`) })
                        : t(`budgets.policy.${row.policy}`),
                    })}
                  </Typography.Text>
                ) : null}
              </Flex>
            ),
          },
          {
            title: t('budgets.actions'),
            render: (_, row) => (
              <Space size={4}>
                {data?.canEdit ? (
                  <Button size="small" onClick={() => setEditing({ orgId: org.id, orgName: org.displayName, ship: { id: row.shipId, name: row.shipName } })}>
                    {t('budgets.edit')}
                  </Button>
                ) : null}
                {row.live === 'block' ? (
                  <Button size="small" danger onClick={() => setOverriding({ id: row.shipId, name: row.shipName })}>
                    {t('budgets.override')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {editing ? <BudgetDialog target={editing} onClose={() => setEditing(undefined)} /> : null}
      {overriding ? <OverrideDialog ship={overriding} onClose={() => setOverriding(undefined)} /> : null}
      {logOpen ? <OverrideLog org={org} onClose={() => setLogOpen(false)} /> : null}
    </div>
  );
}
