import { Alert, Modal, Table } from 'antd';
import type { BudgetOverride } from '@ship-cctv/protocol';
import { useBudgetOverrides } from '../api/data-budget.ts';
import { useBudgetTranslation as useTranslation } from '../texts.ts';

/** The log of overrides of blocked ships in an organisation: when, who, which ship, why, until when. */
export function OverrideLog({ org, onClose }: { org: { id: string; displayName: string }; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const log = useBudgetOverrides(org.id, true);
  const time = (at: number) => new Date(at).toLocaleString(i18n.language);
  return (
    <Modal open title={t('budgets.log.title', { org: org.displayName })} onCancel={onClose} footer={null} destroyOnHidden width={760}>
      {log.isError ? (
        <Alert type="error" showIcon title={t('budgets.log.failed')} />
      ) : (
        <Table<BudgetOverride>
          size="small"
          rowKey="id"
          loading={log.isPending}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          locale={{ emptyText: t('budgets.log.empty') }}
          dataSource={log.data ?? []}
          columns={[
            { title: t('budgets.log.when'), dataIndex: 'createdAt', render: time },
            { title: t('budgets.ship'), dataIndex: 'shipName' },
            { title: t('budgets.log.who'), dataIndex: 'username' },
            { title: t('budgets.log.reason'), dataIndex: 'reason' },
            { title: t('budgets.log.until'), dataIndex: 'validUntil', render: time },
          ]}
        />
      )}
    </Modal>
  );
}
