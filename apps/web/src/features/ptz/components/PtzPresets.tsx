import { useState } from 'react';
import { Button, Empty, Input, List, Popconfirm, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { type PtzTarget, useDeletePreset, useGotoPreset, usePtzPresets, useSetPreset } from '../api/ptz.ts';
import { ptzErrorText } from '../ptz-error.ts';
import styles from '../ptz.module.css';
import { useMessage } from '../../../shared/message.tsx';

/**
 * The camera's presets: go to one, keep where the camera looks as a new one (a name), delete one
 * (confirmed). Each outcome is said in the spec's words (§8: preset point set/delete succeeded or failed).
 */
export function PtzPresets({ target, getPopupContainer }: { target: PtzTarget; getPopupContainer(): HTMLElement }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [name, setName] = useState('');
  const presets = usePtzPresets(target, true);
  const set = useSetPreset(target);
  const go = useGotoPreset(target);
  const remove = useDeletePreset(target);

  const add = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    set.mutate(trimmed, {
      onSuccess: () => {
        setName('');
        message.success(t('ptz.presets.setOk'));
      },
      onError: (err) => message.error(`${t('ptz.presets.setFailed')}: ${ptzErrorText(t, err)}`),
    });
  };

  return (
    <div className={styles.presets} data-testid="ptz-presets">
      <Space.Compact className={styles.presetAdd}>
        <Input size="small" value={name} maxLength={64} placeholder={t('ptz.presets.name')} aria-label={t('ptz.presets.name')} onChange={(e) => setName(e.target.value)} onPressEnter={add} />
        <Button size="small" type="primary" onClick={add} loading={set.isPending} disabled={!name.trim()}>
          {t('ptz.presets.set')}
        </Button>
      </Space.Compact>
      {presets.isLoading ? (
        <Spin size="small" />
      ) : presets.isError ? (
        <div role="alert" className={styles.presetError}>
          {ptzErrorText(t, presets.error)}
        </div>
      ) : (presets.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ptz.presets.empty')} />
      ) : (
        <List
          size="small"
          dataSource={presets.data ?? []}
          renderItem={(p) => (
            <List.Item
              data-preset-id={p.presetId}
              actions={[
                <Button
                  key="go"
                  size="small"
                  type="link"
                  onClick={() => go.mutate(p.presetId, { onError: (err) => message.error(`${t('ptz.presets.gotoFailed')}: ${ptzErrorText(t, err)}`) })}
                >
                  {t('ptz.presets.goto')}
                </Button>,
                <Popconfirm
                  key="delete"
                  title={t('ptz.presets.deleteConfirm', { name: p.name })}
                  getPopupContainer={getPopupContainer}
                  onConfirm={() =>
                    remove.mutate(p.presetId, {
                      onSuccess: () => message.success(t('ptz.presets.deleteOk')),
                      onError: (err) => message.error(`${t('ptz.presets.deleteFailed')}: ${ptzErrorText(t, err)}`),
                    })
                  }
                >
                  <Button size="small" type="link" danger>
                    {t('ptz.presets.delete')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <span className={styles.presetName}>{p.name}</span>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
