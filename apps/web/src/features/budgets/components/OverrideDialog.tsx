import { useState } from 'react';
import { Alert, Button, Flex, Input, Modal, Typography } from 'antd';
import { useBudgetTranslation as useTranslation } from '../texts.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useOverrideBudget } from '../api/data-budget.ts';

/** Asks why before letting this user start live views of a ship its budget blocks (logged on the server). */
export function OverrideDialog({ ship, onClose }: { ship: { id: string; name: string }; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const message = useMessage();
  const override = useOverrideBudget();
  const [reason, setReason] = useState('');
  const tooShort = reason.trim().length < 3;
  const submit = () => {
    if (tooShort) return;
    override.mutate(
      { shipId: ship.id, reason: reason.trim() },
      {
        onSuccess: (made) => {
          void message.success(t('budgets.overrideDialog.done', { until: new Date(made.validUntil).toLocaleString(i18n.language) }));
          onClose();
        },
      },
    );
  };
  return (
    <Modal open title={t('budgets.overrideDialog.title', { ship: ship.name })} onCancel={onClose} footer={null} destroyOnHidden>
      <Typography.Paragraph>{t('budgets.overrideDialog.hint')}</Typography.Paragraph>
      <Input.TextArea aria-label={t('budgets.overrideDialog.reason')} placeholder={t('budgets.overrideDialog.reason')} maxLength={500} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
      {reason !== '' && tooShort ? <Typography.Text type="danger">{t('budgets.overrideDialog.reasonTooShort')}</Typography.Text> : null}
      {override.error ? <Alert type="error" showIcon title={t('budgets.overrideDialog.failed', { message: override.error.message })} style={{ marginTop: 8 }} /> : null}
      <Flex justify="end" gap={8} style={{ marginTop: 12 }}>
        <Button onClick={onClose}>{t('budgets.overrideDialog.cancel')}</Button>
        <Button type="primary" danger disabled={tooShort} loading={override.isPending} onClick={submit}>
          {t('budgets.overrideDialog.confirm')}
        </Button>
      </Flex>
    </Modal>
  );
}
