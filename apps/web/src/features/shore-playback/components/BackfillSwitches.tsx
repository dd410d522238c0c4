import { Flex, Select, Switch, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BACKFILL_DEFINITIONS, type BackfillDefinition } from '@ship-cctv/protocol';
import { ApiError } from '../../../lib/api-client.ts';
import { useMessage } from '../../../shared/message.tsx';
import { useBackfillOrg, useCameraRecordConfigs, useSetBackfillOrg, useSetCameraBackfill } from '../api/backfill.ts';

export interface BackfillSwitchesProps {
  /** The channel chosen in the filter (its recording configuration carries its own switch). */
  cameraId: string | undefined;
  /** The organisation of the ship chosen. */
  orgId: string | undefined;
  orgName(orgId: string): string;
}

/** The camera's "no choice of its own" in its definition picker. */
const FOLLOW_ORG = 'org';

/**
 * Backfill's two switches beside the shore recordings: the chosen channel's own (its recording
 * configuration's) and its organisation's (its managers change it; below, it is inherited).
 * Gaps are refilled only where both are on. Beside each, the definition gaps are refilled in: the
 * organisation's (inherited like its switch), and the channel's own or the organisation's.
 */
export function BackfillSwitches({ cameraId, orgId, orgName }: BackfillSwitchesProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const configs = useCameraRecordConfigs(cameraId);
  const org = useBackfillOrg(orgId);
  const setCamera = useSetCameraBackfill();
  const setOrg = useSetBackfillOrg();
  const config = configs.data?.[0];
  const failed = (err: unknown) => void message.error(err instanceof ApiError && err.code === 403 ? t('shorePlayback.backfill.notAllowed') : t('shorePlayback.backfill.saveFailed', { message: err instanceof Error ? err.message : String(err) }));
  const saved = () => void message.success(t('shorePlayback.backfill.saved'));
  if (!orgId && !cameraId) return null;
  const inherited = org.data && org.data.fromOrgId !== null && org.data.fromOrgId !== org.data.orgId ? t('shorePlayback.backfill.orgInherited', { org: orgName(org.data.fromOrgId) }) : undefined;
  const definitionInherited =
    org.data && org.data.definitionFromOrgId !== null && org.data.definitionFromOrgId !== org.data.orgId ? t('shorePlayback.backfill.orgInherited', { org: orgName(org.data.definitionFromOrgId) }) : undefined;
  const definitions = BACKFILL_DEFINITIONS.map((d) => ({ value: d, label: t(`shorePlayback.backfill.definitions.${d}`) }));

  return (
    <Flex gap={12} align="center" wrap data-testid="backfill-switches">
      <Tooltip title={t('shorePlayback.backfill.hint')}>
        <Typography.Text strong>{t('shorePlayback.backfill.title')}</Typography.Text>
      </Tooltip>
      {cameraId ? (
        <Flex gap={4} align="center">
          <Switch
            size="small"
            aria-label={`${t('shorePlayback.backfill.title')} · ${t('shorePlayback.backfill.camera')}`}
            data-testid="backfill-camera"
            checked={config?.backfill ?? false}
            disabled={!config}
            loading={configs.isFetching || setCamera.isPending}
            onChange={(backfill) => config && setCamera.mutate({ config, backfill }, { onSuccess: saved, onError: failed })}
          />
          <Typography.Text type={config ? undefined : 'secondary'}>{config || configs.isFetching ? t('shorePlayback.backfill.camera') : t('shorePlayback.backfill.cameraOff')}</Typography.Text>
          {config ? (
            <Select<string>
              size="small"
              aria-label={`${t('shorePlayback.backfill.definition')} · ${t('shorePlayback.backfill.camera')}`}
              data-testid="backfill-camera-definition"
              style={{ minWidth: 150 }}
              value={config.backfillDefinition ?? FOLLOW_ORG}
              disabled={setCamera.isPending}
              options={[{ value: FOLLOW_ORG, label: t('shorePlayback.backfill.followOrg') }, ...definitions]}
              onChange={(value) =>
                setCamera.mutate({ config, backfillDefinition: value === FOLLOW_ORG ? null : (value as BackfillDefinition) }, { onSuccess: saved, onError: failed })
              }
            />
          ) : null}
        </Flex>
      ) : null}
      {orgId ? (
        <Tooltip title={org.data && !org.data.canEdit ? t('shorePlayback.backfill.notAllowed') : inherited}>
          <Flex gap={4} align="center">
            <Switch
              size="small"
              aria-label={`${t('shorePlayback.backfill.title')} · ${t('shorePlayback.backfill.org')}`}
              data-testid="backfill-org"
              checked={org.data?.enabled ?? false}
              disabled={!org.data?.canEdit}
              loading={org.isFetching || setOrg.isPending}
              onChange={(enabled) => setOrg.mutate({ orgId, enabled }, { onSuccess: saved, onError: failed })}
            />
            <Typography.Text>{t('shorePlayback.backfill.org')}</Typography.Text>
            {inherited ? <Typography.Text type="secondary">({inherited})</Typography.Text> : null}
            {org.data ? (
              <Tooltip title={definitionInherited}>
                <Select<BackfillDefinition>
                  size="small"
                  aria-label={`${t('shorePlayback.backfill.definition')} · ${t('shorePlayback.backfill.org')}`}
                  data-testid="backfill-org-definition"
                  style={{ minWidth: 150 }}
                  value={org.data.definition}
                  disabled={!org.data.canEdit || setOrg.isPending}
                  options={definitions}
                  onChange={(definition) => setOrg.mutate({ orgId, definition }, { onSuccess: saved, onError: failed })}
                />
              </Tooltip>
            ) : null}
          </Flex>
        </Tooltip>
      ) : null}
    </Flex>
  );
}
