import { useState } from 'react';
import { Alert, Button, Flex, Form, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import { useBudgetTranslation as useTranslation } from '../texts.ts';
import { BUDGET_POLICY_CHOICES, BUDGET_PURPOSES, type BudgetCaps, type BudgetPolicyChoice, type BudgetPurpose, type DataBudgetSetting } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useDeleteBudget, useSaveBudget, useShipBudget } from '../api/data-budget.ts';
import { capOf } from '../budget-figures.ts';

export interface BudgetTarget {
  orgId: string;
  /** The ship; absent: the organisation's default. */
  ship?: { id: string; name: string };
  orgName: string;
  /** The setting shown first (the organisation's default, when editing it). */
  current?: DataBudgetSetting | undefined;
}

/** A manager sets a ship's own data budget or an organisation's default: caps per purpose and the policy. */
export function BudgetDialog({ target, onClose }: { target: BudgetTarget; onClose(): void }) {
  const { t } = useTranslation();
  const own = useShipBudget(target.ship?.id);
  const ready = !target.ship || own.isSuccess;
  const initial = target.ship ? own.data ?? undefined : target.current;
  return (
    <Modal open title={target.ship ? t('budgets.dialog.shipTitle', { ship: target.ship.name }) : t('budgets.dialog.orgTitle', { org: target.orgName })} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      {own.isError ? <Alert type="error" showIcon title={t('budgets.loadFailed')} /> : ready ? <BudgetForm target={target} initial={initial} onClose={onClose} /> : null}
    </Modal>
  );
}

type Figures = Record<BudgetPurpose, { day: number | null; month: number | null }>;

function BudgetForm({ target, initial, onClose }: { target: BudgetTarget; initial: DataBudgetSetting | undefined; onClose(): void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveBudget();
  const remove = useDeleteBudget();
  // A new budget follows the ship's link (FBB at sea: pictures only; port 4G: the lowest definition).
  const [policy, setPolicy] = useState<BudgetPolicyChoice>(initial?.policy ?? 'link');
  const [figures, setFigures] = useState<Figures>(() => {
    const of = (p: BudgetPurpose) => ({ day: initial?.caps[p]?.dayMb ?? null, month: initial?.caps[p]?.monthMb ?? null });
    return { live: of('live'), playback: of('playback'), pictures: of('pictures'), backfill: of('backfill'), events: of('events') };
  });
  const dayOverMonth = BUDGET_PURPOSES.some((p) => figures[p].day !== null && figures[p].month !== null && (figures[p].day as number) > (figures[p].month as number));
  const error = save.error ?? remove.error;
  const failure = error instanceof ApiError && error.code === 403 ? t('budgets.dialog.notAllowed') : error ? t('budgets.dialog.saveFailed', { message: error.message }) : undefined;
  const set = (p: BudgetPurpose, which: 'day' | 'month', value: number | null) => setFigures((f) => ({ ...f, [p]: { ...f[p], [which]: value } }));

  const submit = () => {
    if (dayOverMonth) return;
    const caps = Object.fromEntries(BUDGET_PURPOSES.map((p) => [p, capOf(figures[p].day, figures[p].month)])) as BudgetCaps;
    save.mutate(
      { orgId: target.orgId, ...(target.ship ? { shipId: target.ship.id } : {}), policy, caps },
      {
        onSuccess: () => {
          void message.success(t('budgets.dialog.saved'));
          onClose();
        },
      },
    );
  };
  const drop = () =>
    remove.mutate(
      { orgId: target.orgId, ...(target.ship ? { shipId: target.ship.id } : {}) },
      {
        onSuccess: () => {
          void message.success(t('budgets.dialog.removed'));
          onClose();
        },
      },
    );

  return (
    <Form layout="vertical" component="div">
      {BUDGET_PURPOSES.map((p) => (
        <Form.Item key={p} label={t(`budgets.purpose.${p}`)} style={{ marginBottom: 8 }}>
          <Space>
            <InputNumber aria-label={`${t(`budgets.purpose.${p}`)} · ${t('budgets.dialog.dayMb')}`} addonBefore={t('budgets.dialog.dayMb')} min={0.01} max={10_000_000} value={figures[p].day} onChange={(v) => set(p, 'day', v)} />
            <InputNumber aria-label={`${t(`budgets.purpose.${p}`)} · ${t('budgets.dialog.monthMb')}`} addonBefore={t('budgets.dialog.monthMb')} min={0.01} max={10_000_000} value={figures[p].month} onChange={(v) => set(p, 'month', v)} />
          </Space>
        </Form.Item>
      ))}
      {dayOverMonth ? <Alert type="error" showIcon title={t('budgets.dialog.dayOverMonth')} style={{ marginBottom: 8 }} /> : null}
      <Form.Item label={t('budgets.dialog.policy')}>
        <Radio.Group value={policy} onChange={(e) => setPolicy(e.target.value as BudgetPolicyChoice)}>
          <Space direction="vertical">
            {BUDGET_POLICY_CHOICES.map((p) => (
              <Radio key={p} value={p}>
                {t(`budgets.policy.${p}`)}
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <Typography.Paragraph type="secondary">{t('budgets.dialog.hint')}</Typography.Paragraph>
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <Flex justify="space-between" gap={8}>
        <span>
          {initial ? (
            <Button danger loading={remove.isPending} onClick={drop}>
              {target.ship ? t('budgets.dialog.remove') : t('budgets.dialog.removeDefault')}
            </Button>
          ) : null}
        </span>
        <Flex gap={8}>
          <Button onClick={onClose}>{t('budgets.dialog.cancel')}</Button>
          <Button type="primary" loading={save.isPending} disabled={dayOverMonth} onClick={submit}>
            {t('budgets.dialog.save')}
          </Button>
        </Flex>
      </Flex>
    </Form>
  );
}
