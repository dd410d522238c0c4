import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayableSource } from '../../../shared/playable-source.ts';
import { SourceTree, type SourceNode, type SourceTreeActions, toPlayableSource } from '../../../shared/source-tree/index.ts';

/** The camera a tree node stands for; a multi-camera channel stands for none (pick a camera). */
export function cameraOf(node: SourceNode): PlayableSource | undefined {
  if (node.kind === 'camera') return toPlayableSource(node.ship, node.channel, node.camera, node.waitTime);
  if (node.kind === 'channel' && node.channel.cameras.length === 1 && node.channel.cameras[0]) {
    return toPlayableSource(node.ship, node.channel, node.channel.cameras[0], node.waitTime);
  }
  return undefined;
}

/** The shared source tree where a click picks the camera whose pictures the page shows. */
export function CameraSourceTree({ selectedKey, onSelect }: { selectedKey: string | undefined; onSelect(source: PlayableSource, key: string): void }) {
  const { t } = useTranslation();
  const actions = useMemo<SourceTreeActions>(
    () => ({
      open(node) {
        const source = cameraOf(node);
        if (source) onSelect(source, node.key);
      },
      select: {
        key: selectedKey,
        onSelect(node) {
          const source = cameraOf(node);
          if (source) onSelect(source, node.key);
        },
      },
      hint: t('pictures.ship.treeHint'),
    }),
    [onSelect, selectedKey, t],
  );
  return <SourceTree actions={actions} />;
}
