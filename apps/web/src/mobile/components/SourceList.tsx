import { useEffect, useMemo, useState } from 'react';
import { Button, DotLoading, List } from 'antd-mobile';
import { VideoOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import type { Ship } from '@ship-cctv/protocol';
import { useOrgShipTree } from '../../shared/source-tree/index.ts';
import { useShipChannels } from '../../shared/source-tree/index.ts';
import { pickOrg, useOrganisations } from '../../shared/source-tree/index.ts';
import { cameraInstanceId, shipDisplayName, shipsOf } from '../../shared/source-tree/index.ts';
import type { PlayableSource } from '../../shared/playable-source.ts';
import { useCameraStatus } from '../../lib/realtime/index.ts';
import { useLongPress } from '../long-press.ts';
import { useLiveUsers } from '../live-users.ts';
import { channelListState, LIST_TEXT_KEYS, pickShip, resolveSelectedShip, usePickedShipId, type ChannelRow } from '../source-list.ts';
import { PickerSheet } from './PickerSheet.tsx';
import { ShipLink } from './ShipLink.tsx';
import styles from '../mobile.module.css';

export interface SourceListProps {
  /** A long press (500 ms, spec §5) on a channel's camera. */
  onLongPress(source: PlayableSource): void;
  /** A tap on a channel's camera. */
  onTap(source: PlayableSource): void;
}

/**
 * Spec §2 mobile source list: organisation picker, ship picker (link icon and signal colour per
 * ship) and the chosen ship's channels. A single organisation or ship is picked by itself.
 */
export function SourceList({ onLongPress, onTap }: SourceListProps) {
  const { t } = useTranslation();
  const tree = useOrgShipTree();
  const { orgs, selected: org } = useOrganisations();
  const ships = useMemo(() => (org ? shipsOf(org.node) : []), [org]);
  const ship = resolveSelectedShip(ships, usePickedShipId(org?.id));
  const [sheet, setSheet] = useState<'org' | 'ship' | null>(null);

  const { byShip, load } = useShipChannels();
  // Spec §4 "Expanding a ship": choosing it loads its wait time, then its channels (once).
  useEffect(() => {
    if (ship) void load(ship);
  }, [ship, load]);

  return (
    <section className={styles.sources} aria-label={t('mobile.source.channels')}>
      <List mode="card" className={styles.pickers}>
        <List.Item
          prefix={<span className={styles.pickerLabel}>{t('mobile.source.organisation')}</span>}
          onClick={() => setSheet('org')}
          arrowIcon
          aria-label={t('mobile.source.organisation')}
          data-testid="org-picker"
        >
          {tree.isLoading ? (
            <DotLoading />
          ) : tree.isError ? (
            <span className={styles.error}>{t('mobile.source.loadFailed')}</span>
          ) : (
            <span className={org ? undefined : styles.muted}>{org?.displayName ?? t('mobile.source.organisationPrompt')}</span>
          )}
        </List.Item>
        <List.Item
          prefix={<span className={styles.pickerLabel}>{t('mobile.source.ship')}</span>}
          onClick={org ? () => setSheet('ship') : undefined}
          disabled={!org}
          arrowIcon
          aria-label={t('mobile.source.ship')}
          data-testid="ship-picker"
        >
          {ship ? <ShipName ship={ship} /> : <span className={styles.muted}>{org && ships.length === 0 ? t('mobile.source.noShips') : t('mobile.source.shipPrompt')}</span>}
        </List.Item>
      </List>
      {tree.isError ? (
        <div className={styles.centred}>
          <Button size="small" onClick={() => void tree.refetch()}>
            {t('mobile.source.retry')}
          </Button>
        </div>
      ) : null}

      {/* Keyed by ship: another ship starts from an empty live-user list. */}
      <ChannelList key={ship?.id ?? ''} ship={ship} loaded={ship ? byShip.get(ship.id) : undefined} onLongPress={onLongPress} onTap={onTap} />

      <PickerSheet
        title={t('mobile.source.organisation')}
        open={sheet === 'org'}
        value={org?.id}
        options={orgs.map((o) => ({ value: o.id, label: o.displayName, depth: o.depth }))}
        onPick={(id) => pickOrg(id)}
        onClose={() => setSheet(null)}
      />
      <PickerSheet
        title={t('mobile.source.ship')}
        open={sheet === 'ship'}
        value={ship?.id}
        options={ships.map((s) => ({ value: s.id, label: <ShipName ship={s} /> }))}
        onPick={(id) => org && pickShip(org.id, id)}
        onClose={() => setSheet(null)}
      />
    </section>
  );
}

function ShipName({ ship }: { ship: Ship }) {
  return (
    <span className={styles.shipName} data-ship={ship.id}>
      <ShipLink shipName={ship.name} />
      <span className={styles.ellipsis}>{shipDisplayName(ship)}</span>
    </span>
  );
}

function ChannelList({ ship, loaded, onLongPress, onTap }: { ship: Ship | undefined; loaded: Parameters<typeof channelListState>[1]; onLongPress(source: PlayableSource): void; onTap(source: PlayableSource): void }) {
  const { t } = useTranslation();
  const state = channelListState(ship, loaded);
  const rows = state.kind === 'ready' ? state.rows : [];
  const instanceIds = useMemo(
    () => (ship ? rows.flatMap((row) => (row.kind === 'source' ? [cameraInstanceId(row.camera, ship)] : [])) : []),
    [rows, ship],
  );
  const liveUsers = useLiveUsers(instanceIds);
  const live = useMemo(() => new Set(liveUsers), [liveUsers]);
  const sourceCount = rows.filter((row) => row.kind === 'source').length;
  const onlineCount = rows.filter((row) => row.kind === 'source' && live.has(row.camera.id)).length;

  const header = (
    <div className={styles.listHeader}>
      <span>{t('mobile.source.channels')}</span>
      {state.kind === 'ready' ? <span data-testid="online-count">{t('mobile.source.onlineCount', { online: onlineCount, total: sourceCount })}</span> : null}
    </div>
  );

  return (
    <List mode="card" header={header} className={styles.channelList} aria-busy={state.kind === 'loading'}>
      {state.kind === 'ready' ? (
        rows.map((row) =>
          row.kind === 'group' ? (
            <List.Item key={row.key} className={styles.groupRow} data-channel={row.channel.id}>
              {row.channel.name}
            </List.Item>
          ) : (
            <ChannelItem key={row.key} row={row} online={live.has(row.camera.id)} onLongPress={onLongPress} onTap={onTap} />
          ),
        )
      ) : (
        <List.Item>
          <span className={state.kind === 'error' ? styles.error : styles.muted} role={state.kind === 'error' ? 'alert' : 'status'} data-list-state={state.kind}>
            {state.kind === 'loading' ? <DotLoading /> : null}
            {t(LIST_TEXT_KEYS[state.kind])}
          </span>
        </List.Item>
      )}
      {state.kind === 'ready' ? (
        <List.Item>
          <span className={styles.muted}>{t('mobile.source.longPressHint')}</span>
        </List.Item>
      ) : null}
    </List>
  );
}

function ChannelItem({ row, online, onLongPress, onTap }: { row: Extract<ChannelRow, { kind: 'source' }>; online: boolean; onLongPress(source: PlayableSource): void; onTap(source: PlayableSource): void }) {
  const { t } = useTranslation();
  const { source, camera, channel } = row;
  const press = useLongPress(() => onLongPress(source));
  const status = useCameraStatus(cameraInstanceId(camera, { name: source.shipName }), camera.id);
  const name = row.nested ? camera.name : channel.name;
  return (
    <List.Item className={styles.channelRow}>
      <div
        role="button"
        tabIndex={0}
        className={styles.channelPress}
        data-channel={row.nested ? undefined : channel.id}
        data-camera={camera.id}
        data-online={online}
        aria-label={name}
        {...press}
        onClick={() => onTap(source)}
        onKeyDown={(event) => {
          // Keyboards have no long press: the context-menu key (or Shift+F10) stands in for it.
          if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
            event.preventDefault();
            onLongPress(source);
          } else if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            onTap(source);
          }
        }}
      >
        <span className={row.nested ? styles.nested : undefined} />
        <VideoOutline className={online ? styles.online : styles.offline} aria-label={online ? t('sourceTree.online') : t('sourceTree.offline')} role="img" />
        <span className={styles.ellipsis}>{name}</span>
        {status.recording ? <span className={styles.recordingDot} role="img" aria-label={t('sourceTree.recording')} /> : null}
      </div>
    </List.Item>
  );
}
