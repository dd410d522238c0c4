import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Channel, Ship } from '@ship-cctv/protocol';
import { channelSources, shipSources, toPlayableSource, type SourceNode, type SourceTreeActions } from '../../../shared/source-tree/index.ts';
import { usePlaylistActions } from '../playlist.ts';

/** The main preview's actions: a double-click adds to the play grid, a right-click adds a ship's channels. */
export function useLivePreviewActions(): SourceTreeActions {
  const { t } = useTranslation();
  const { add, addMany } = usePlaylistActions();
  const open = useCallback(
    (node: SourceNode) => {
      if (node.kind === 'camera') add(toPlayableSource(node.ship, node.channel, node.camera, node.waitTime));
      else if (node.kind === 'channel') {
        const sources = channelSources(node.ship, node.channel, node.waitTime);
        if (sources.length === 1 && sources[0]) add(sources[0]);
        else addMany(sources);
      }
    },
    [add, addMany],
  );
  const openShip = useCallback((ship: Ship, channels: Channel[], waitTime: number) => addMany(shipSources(ship, channels, waitTime)), [addMany]);
  return useMemo(() => ({ open, openShip, hint: t('live.grid.treeHint') }), [open, openShip, t]);
}
