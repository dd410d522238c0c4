import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Flex, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { BUDGET_POLICIES, type BudgetPolicy, DEFINITION_LEVELS, type DefinitionLevel, type LinkPolicy, type LinkPolicyList, type PolicyLink } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useLinkPolicyList, useRestoreLinkPolicy, useSaveLinkPolicy } from '../api/link-policies.ts';
import { draftOf, problemOf, sameAs, STILLS_SECONDS, updateOf, type PolicyDraft } from '../policy-draft.ts';
import { useLinkPolicyTranslation as useTranslation } from '../texts.ts';

export interface LinkPolicyDialogProps {
  /** The organisation whose policies are shown (the header's selected one); the dialog is open while `open`. */
  org: { id: string; displayName: string } | undefined;
  open: boolean;
  onClose(): void;
}

const LEVEL_COLUMNS = ['manyCells', 'fewCells', 'fullScreen'] as const;

/**
 * An organisation's link policies (issue 19 item 4): per link type, the definition a live cell asks
 * for in a 9/16-cell grid, a 1/4-cell grid and full screen, the stills setting and what a used-up
 * live budget does on that link (ships whose budget follows the link); whether each is
 * the organisation's own, one it follows from above, or the defaults. Its managers change a row
 * and save it, or restore the defaults; everyone else who sees the organisation reads them.
 */
export function LinkPolicyDialog({ org, open, onClose }: LinkPolicyDialogProps) {
  const { t } = useTranslation();
  const list = useLinkPolicyList(open ? org?.id : undefined);
  return (
    <Modal
      open={open}
      title={org ? t('linkPolicies.title', { org: org.displayName }) : t('linkPolicies.chooseOrganisation')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={1240}
    >
      {!org ? (
        <Typography.Text type="secondary">{t('linkPolicies.chooseOrganisation')}</Typography.Text>
      ) : list.isError ? (
        <Alert type="error" showIcon title={t('linkPolicies.loadFailed', { message: list.error.message })} />
      ) : (
        <PolicyTable key={org.id} orgId={org.id} list={list.data} />
      )}
    </Modal>
  );
}

function PolicyTable({ orgId, list }: { orgId: string; list: LinkPolicyList | undefined }) {
  const { t } = useTranslation();
  const message = useMessage();
  const save = useSaveLinkPolicy();
  const restore = useRestoreLinkPolicy();
  const [drafts, setDrafts] = useState<Partial<Record<PolicyLink, PolicyDraft>>>({});
  const [pending, setPending] = useState<ReadonlySet<PolicyLink>>(new Set());
  const [failures, setFailures] = useState<Partial<Record<PolicyLink, string>>>({});
  const canEdit = list?.canEdit === true;
  const linkName = (link: PolicyLink) => t(`linkPolicies.link.${link}`);
  const draftFor = (p: LinkPolicy): PolicyDraft => drafts[p.linkType] ?? draftOf(p);

  const setDraft = (p: LinkPolicy, change: Partial<PolicyDraft>) => {
    const next = { ...draftFor(p), ...change };
    setDrafts((d) => ({ ...d, [p.linkType]: sameAs(next, p) ? undefined : next }));
    setFailures((f) => ({ ...f, [p.linkType]: undefined }));
  };
  const forget = (link: PolicyLink) => setDrafts((d) => ({ ...d, [link]: undefined }));
  const busy = (link: PolicyLink, on: boolean) =>
    setPending((s) => {
      const next = new Set(s);
      if (on) next.add(link);
      else next.delete(link);
      return next;
    });
  const failed = (link: PolicyLink, key: 'linkPolicies.saveFailed' | 'linkPolicies.restoreFailed', error: unknown) => {
    const text = error instanceof ApiError && error.code === 403 ? t('linkPolicies.notAllowed') : t(key, { link: linkName(link), message: error instanceof Error ? error.message : String(error) });
    setFailures((f) => ({ ...f, [link]: text }));
  };

  const submit = async (p: LinkPolicy) => {
    const update = updateOf(draftFor(p));
    if (!update) return;
    busy(p.linkType, true);
    try {
      await save.mutateAsync({ orgId, linkType: p.linkType, update });
      forget(p.linkType);
      void message.success(t('linkPolicies.saved', { link: linkName(p.linkType) }));
    } catch (error) {
      failed(p.linkType, 'linkPolicies.saveFailed', error);
    } finally {
      busy(p.linkType, false);
    }
  };
  const reset = async (p: LinkPolicy) => {
    busy(p.linkType, true);
    try {
      await restore.mutateAsync({ orgId, linkType: p.linkType });
      forget(p.linkType);
      void message.success(t('linkPolicies.restored', { link: linkName(p.linkType) }));
    } catch (error) {
      failed(p.linkType, 'linkPolicies.restoreFailed', error);
    } finally {
      busy(p.linkType, false);
    }
  };

  const problems = (list?.policies ?? []).flatMap((p) => {
    const draft = drafts[p.linkType];
    const problem = draft ? problemOf(draft) : undefined;
    return problem ? [{ link: p.linkType, text: t(`linkPolicies.${problem}`, { link: linkName(p.linkType) }) }] : [];
  });
  const shownFailures = Object.entries(failures).filter((e): e is [PolicyLink, string] => e[1] !== undefined);

  const levelColumn = (column: (typeof LEVEL_COLUMNS)[number]) => ({
    title: t(`linkPolicies.column.${column}`),
    key: column,
    render: (_: unknown, p: LinkPolicy) => {
      const draft = draftFor(p);
      if (!canEdit) return <span data-policy-field={column}>{t(`linkPolicies.level.${p[column]}`)}</span>;
      return (
        <Select<DefinitionLevel>
          size="small"
          style={{ width: 112 }}
          aria-label={t('linkPolicies.control', { link: linkName(p.linkType), what: t(`linkPolicies.column.${column}`) })}
          data-policy-field={column}
          value={draft[column]}
          status={drafts[p.linkType] && problemOf(draft) === 'order' ? 'error' : undefined}
          disabled={pending.has(p.linkType)}
          onChange={(level) => setDraft(p, { [column]: level })}
          options={DEFINITION_LEVELS.map((level) => ({ value: level, label: t(`linkPolicies.level.${level}`) }))}
        />
      );
    },
  });

  return (
    <Flex vertical gap={8} data-testid="link-policies">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('linkPolicies.hint')}
      </Typography.Paragraph>
      {list && !canEdit ? <Alert type="info" showIcon title={t('linkPolicies.readOnly')} data-testid="link-policies-read-only" /> : null}
      {[...problems.map((p) => ({ ...p, type: 'warning' as const })), ...shownFailures.map(([link, text]) => ({ link, text, type: 'error' as const }))].map((a) => (
        <Alert key={`${a.type}-${a.link}`} type={a.type} showIcon title={a.text} data-policy-alert={a.link} />
      ))}
      <Table<LinkPolicy>
        size="small"
        loading={!list}
        pagination={false}
        rowKey="linkType"
        dataSource={list?.policies ?? []}
        onRow={(p) => ({ 'data-policy-row': p.linkType }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('linkPolicies.column.link'), key: 'link', render: (_, p) => <Typography.Text strong>{linkName(p.linkType)}</Typography.Text> },
          ...LEVEL_COLUMNS.map(levelColumn),
          {
            title: <HintedTitle title={t('linkPolicies.column.stills')} hint={t('linkPolicies.stillsHint')} />,
            key: 'stills',
            render: (_, p) => {
              const draft = draftFor(p);
              if (!canEdit) return <span data-policy-field="stills">{p.stills ? t('linkPolicies.stillsEvery', { seconds: p.stillsEverySeconds }) : t('linkPolicies.stillsOff')}</span>;
              return (
                <Space size={6}>
                  <Switch
                    size="small"
                    aria-label={t('linkPolicies.control', { link: linkName(p.linkType), what: t('linkPolicies.column.stills') })}
                    checked={draft.stills}
                    disabled={pending.has(p.linkType)}
                    onChange={(stills) => setDraft(p, { stills })}
                  />
                  <InputNumber<number>
                    size="small"
                    style={{ width: 96 }}
                    aria-label={t('linkPolicies.control', { link: linkName(p.linkType), what: t('linkPolicies.seconds') })}
                    min={STILLS_SECONDS.min}
                    max={STILLS_SECONDS.max}
                    precision={0}
                    suffix={t('linkPolicies.seconds')}
                    value={draft.stillsEverySeconds}
                    status={drafts[p.linkType] && problemOf(draft) === 'secondsRange' ? 'error' : undefined}
                    disabled={!draft.stills || pending.has(p.linkType)}
                    onChange={(seconds) => setDraft(p, { stillsEverySeconds: seconds })}
                  />
                </Space>
              );
            },
          },
          {
            title: <HintedTitle title={t('linkPolicies.column.budget')} hint={t('linkPolicies.budgetHint')} />,
            key: 'budget',
            render: (_, p) => {
              if (!canEdit) return <span data-policy-field="budgetPolicy">{t(`linkPolicies.budgetPolicy.${p.budgetPolicy}`)}</span>;
              return (
                <Select<BudgetPolicy>
                  size="small"
                  style={{ width: 148 }}
                  aria-label={t('linkPolicies.control', { link: linkName(p.linkType), what: t('linkPolicies.column.budget') })}
                  data-policy-field="budgetPolicy"
                  value={draftFor(p).budgetPolicy}
                  disabled={pending.has(p.linkType)}
                  onChange={(budgetPolicy) => setDraft(p, { budgetPolicy })}
                  options={BUDGET_POLICIES.map((policy) => ({ value: policy, label: t(`linkPolicies.budgetPolicy.${policy}`) }))}
                />
              );
            },
          },
          {
            title: t('linkPolicies.column.source'),
            key: 'source',
            render: (_, p) => (
              <Space size={4} wrap>
                <Tag color={p.source === 'own' ? 'blue' : p.source === 'inherited' ? 'purple' : undefined} data-policy-source={p.source}>
                  {t(`linkPolicies.source.${p.source}`, { org: p.inheritedFrom?.displayName ?? '' })}
                </Tag>
                {drafts[p.linkType] ? (
                  <Tag color="warning" data-policy-unsaved>
                    {t('linkPolicies.unsaved')}
                  </Tag>
                ) : null}
              </Space>
            ),
          },
          ...(canEdit
            ? [
                {
                  title: t('linkPolicies.column.actions'),
                  key: 'actions',
                  render: (_: unknown, p: LinkPolicy) => {
                    const draft = drafts[p.linkType];
                    return (
                      <Space size={4}>
                        {/* Save and undo only for a row that was changed: the rest of the column stays quiet. */}
                        {draft ? (
                          <>
                            <Button size="small" type="primary" loading={pending.has(p.linkType)} disabled={problemOf(draft) !== undefined} onClick={() => void submit(p)}>
                              {t('linkPolicies.save')}
                            </Button>
                            <Button size="small" disabled={pending.has(p.linkType)} onClick={() => forget(p.linkType)}>
                              {t('linkPolicies.undo')}
                            </Button>
                          </>
                        ) : null}
                        {p.source === 'own' ? (
                          <Popconfirm
                            title={t('linkPolicies.restoreConfirm', { link: linkName(p.linkType) })}
                            okText={t('linkPolicies.restoreOk')}
                            cancelText={t('linkPolicies.restoreCancel')}
                            onConfirm={() => reset(p)}
                          >
                            <Button size="small" danger disabled={pending.has(p.linkType)}>
                              {t('linkPolicies.restore')}
                            </Button>
                          </Popconfirm>
                        ) : null}
                      </Space>
                    );
                  },
                },
              ]
            : []),
        ]}
      />
    </Flex>
  );
}

/** A column's title with a question mark whose tooltip explains it. */
function HintedTitle({ title, hint }: { title: string; hint: string }) {
  return (
    <Space size={4}>
      {title}
      <Tooltip title={hint}>
        <QuestionCircleOutlined aria-label={hint} />
      </Tooltip>
    </Space>
  );
}
