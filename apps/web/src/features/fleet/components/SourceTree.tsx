import { useEffect, useMemo, useState, type Key } from 'react';
import { Empty, Flex, Input, Select, Tree, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePlaylistActions } from '../../live/playlist.ts';
import { useElementHeight } from '../hooks/useElementHeight.ts';
import { useShipChannels } from '../hooks/useShipChannels.ts';
import { pickOrg, useOrganisations } from '../selection.ts';
import { buildSourceTree, channelSources, searchExpandedKeys, shipKey, shipSources, shipsOf, toPlayableSource, type OrgOption, type SourceNode } from '../tree.ts';
import { CameraTitle, ChannelTitle, MessageTitle, OrgTitle, ShipTitle } from './NodeTitles.tsx';

function NodeTitle({ node }: { node: SourceNode }) {
  switch (node.kind) {
    case 'org':
      return <OrgTitle org={node.org} />;
    case 'ship':
      return <ShipTitle ship={node.ship} />;
    case 'channel':
      return <ChannelTitle ship={node.ship} channel={node.channel} />;
    case 'camera':
      return <CameraTitle ship={node.ship} camera={node.camera} />;
    case 'message':
      return <MessageTitle message={node.message} />;
  }
}

/**
 * Ships and channels of one organisation. Keyed by organisation by its parent, so changing the
 * organisation starts from nothing: no ship, link or sources of the previous one (spec §2).
 */
function OrgSourceTree({ org }: { org: OrgOption }) {
  const { t } = useTranslation();
  const { add, addMany } = usePlaylistActions();
  const { byShip, load } = useShipChannels();
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [search, setSearch] = useState('');
  const [box, height] = useElementHeight<HTMLDivElement>();

  const nodes = useMemo(() => buildSourceTree(org.node, byShip, search), [org.node, byShip, search]);
  const searching = search.trim() !== '';
  const expandedKeys = useMemo(() => (searching ? [...new Set([...expanded, ...searchExpandedKeys(nodes)])] : expanded), [searching, expanded, nodes]);
  const ships = useMemo(() => shipsOf(org.node), [org.node]);

  // Spec §2: an organisation with a single ship opens it straight away.
  const onlyShip = ships.length === 1 ? ships[0] : undefined;
  useEffect(() => {
    if (!onlyShip) return;
    setExpanded((keys) => (keys.includes(shipKey(onlyShip.id)) ? keys : [...keys, shipKey(onlyShip.id)]));
    void load(onlyShip);
  }, [onlyShip, load]);

  return (
    <Flex vertical gap={8} style={{ flex: 1, minHeight: 0 }}>
      <Input.Search allowClear placeholder={t('fleet.searchPrompt')} aria-label={t('fleet.searchPrompt')} value={search} onChange={(e) => setSearch(e.target.value)} />
      <div ref={box} style={{ flex: 1, minHeight: 0 }} aria-label={t('fleet.hint')} title={t('fleet.hint')}>
        {nodes.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={searching ? t('fleet.noMatch') : t('fleet.noShips')} />
        ) : (
          <Tree<SourceNode>
            // Virtual: only the rows on screen are rendered (and subscribed), so hundreds of ships stay fast.
            height={Math.max(height, 100)}
            virtual
            blockNode
            treeData={nodes}
            fieldNames={{ key: 'key', children: 'children' }}
            expandedKeys={expandedKeys}
            selectable={false}
            titleRender={(node) => <NodeTitle node={node} />}
            onExpand={(keys, { node, expanded: opening }) => {
              setExpanded(keys);
              if (opening && node.kind === 'ship' && byShip.get(node.ship.id)?.status !== 'ready') void load(node.ship);
            }}
            onDoubleClick={(_, node) => {
              if (node.kind === 'camera') add(toPlayableSource(node.ship, node.channel, node.camera, node.waitTime));
              else if (node.kind === 'channel') {
                const sources = channelSources(node.ship, node.channel, node.waitTime);
                if (sources.length === 1 && sources[0]) add(sources[0]);
                else addMany(sources);
              }
            }}
            onRightClick={({ event, node }) => {
              if (node.kind !== 'ship') return;
              event.preventDefault();
              void load(node.ship).then((loaded) => {
                if (loaded) addMany(shipSources(node.ship, loaded.channels, loaded.waitTime));
              });
            }}
          />
        )}
      </div>
    </Flex>
  );
}

/** The left sidebar's content: organisation picker, search and the virtual source tree. */
export function SourceTree() {
  const { t } = useTranslation();
  const { orgs, selected, isLoading } = useOrganisations();
  return (
    <Flex vertical gap={8} style={{ height: '100%', padding: 12, boxSizing: 'border-box' }}>
      <Typography.Text type="secondary">{t('fleet.organisation')}</Typography.Text>
      <Select
        aria-label={t('fleet.organisation')}
        placeholder={t('fleet.organisationPrompt')}
        loading={isLoading}
        value={selected?.id}
        onChange={(id: string) => pickOrg(id)}
        // Sub-organisations indented under their parent; the title is what search and tooltips use.
        options={orgs.map((org) => ({ value: org.id, title: org.displayName, label: <span style={{ paddingInlineStart: org.depth * 14 }}>{org.displayName}</span> }))}
        optionLabelProp="title"
        showSearch={{ optionFilterProp: 'title' }}
      />
      {selected ? <OrgSourceTree key={selected.id} org={selected} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fleet.organisationPrompt')} />}
    </Flex>
  );
}
