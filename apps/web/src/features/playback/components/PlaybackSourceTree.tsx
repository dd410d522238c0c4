import { useMemo, useState } from 'react';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Camera, Channel, Ship } from '@ship-cctv/protocol';
import { SourceTree, type SourceTreeActions } from '../../../shared/source-tree/index.ts';
import { hasSubItems, shipDisplayName, type SourceNode } from '../../../shared/source-tree/index.ts';

/** One camera to play back: what the options dialog and the player need of it. */
export interface PlaybackSource {
  cameraId: string;
  /** The channel name, with the camera name for multi-camera channels. */
  title: string;
  shipId: string;
  shipName: string;
  shipDisplayName: string;
  orgId: string;
  /** IANA zone of the ship's clock. */
  shipTimeZone: string;
  /** Seconds the organisation expects before the first frame. */
  waitTime: number;
}

export function toPlaybackSource(ship: Ship, channel: Channel, camera: Camera, waitTime: number): PlaybackSource {
  return {
    cameraId: camera.id,
    title: hasSubItems(channel) ? `${channel.name} · ${camera.name}` : channel.name,
    shipId: ship.id,
    shipName: ship.name,
    shipDisplayName: shipDisplayName(ship),
    orgId: ship.orgId,
    shipTimeZone: ship.timeZone,
    waitTime,
  };
}

/** The camera a tree node stands for; a multi-camera channel stands for none (pick a camera). */
function sourceOf(node: SourceNode): PlaybackSource | undefined {
  if (node.kind === 'camera') return toPlaybackSource(node.ship, node.channel, node.camera, node.waitTime);
  if (node.kind === 'channel' && node.channel.cameras.length === 1 && node.channel.cameras[0]) {
    return toPlaybackSource(node.ship, node.channel, node.channel.cameras[0], node.waitTime);
  }
  return undefined;
}

/**
 * The main preview's source tree (organisation picker, titles, loading and search from
 * features/fleet), where choosing a channel opens the playback options instead of the play grid:
 * a double-click, or a click then the Ship playback button.
 */
export function PlaybackSourceTree({ onOpen }: { onOpen(source: PlaybackSource): void }) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<{ key: string; source: PlaybackSource }>();
  const actions = useMemo<SourceTreeActions>(
    () => ({
      open(node) {
        const source = sourceOf(node);
        if (source) onOpen(source);
      },
      select: {
        key: selected?.key,
        onSelect(node) {
          const source = sourceOf(node);
          setSelected(source ? { key: node.key, source } : undefined);
        },
      },
      hint: t('playback.page.treeHint'),
      footer: (
        <Button type="primary" block disabled={!selected} title={selected ? undefined : t('playback.page.chooseCamera')} onClick={() => selected && onOpen(selected.source)}>
          {t('playback.page.playBack')}
        </Button>
      ),
    }),
    [onOpen, selected, t],
  );
  return <SourceTree actions={actions} />;
}
