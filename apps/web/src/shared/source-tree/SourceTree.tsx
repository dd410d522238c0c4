import { useEffect, useMemo, useState, type Key, type ReactNode } from 'react';
import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Select, Spin, Tree, Typography } from 'antd';
// antd's Input index attaches TextArea, Password and OTP to Input, so importing it keeps them all
// (~8 KB gzip the live preview's first screen does not use); the search box alone is this module.
import InputSearch from 'antd/es/input/Search';
import { useTranslation } from 'react-i18next';
import { useChannelSearch } from './api/channel-search.ts';
import { useDebouncedValue } from './useDebouncedValue.ts';
import { useElementHeight } from './useElementHeight.ts';
import { useShipChannels } from './useShipChannels.ts';
import { SEARCH_DEBOUNCE_MS, searchText, shipsToOpen, shipsWithMatches } from './search.ts';
import { pickOrg, useOrganisations } from './selection.ts';
import { buildSourceTree, orgNodeKeys, searchExpandedKeys, shipKey, shipsOf, type OrgOption, type SourceNode } from './tree.ts';
import type { Channel, Ship } from '@ship-cctv/protocol';

/** What a screen does with the tree's nodes: the main preview plays them, playback asks for a range. */
export interface SourceTreeActions {
  /** A double-click on a node. */
  open(node: SourceNode): void;
  /** A right-click on a ship, once its channels are loaded. */
  openShip?(ship: Ship, channels: Channel[], waitTime: number): void;
  /** Nodes are selectable (a click) when given. */
  select?: { key: string | undefined; onSelect(node: SourceNode): void };
  /** The tooltip of the tree: what a double-click does. */
  hint: string;
  /** Shown under the tree (e.g. a button acting on the selected node). */
  footer?: ReactNode;
}

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
function OrgSourceTree({ org, actions }: { org: OrgOption; actions: SourceTreeActions }) {
  const { t } = useTranslation();
  const { byShip, load } = useShipChannels();
  // Sub-organisations start open: the first look at an organisation shows all its ships' links.
  const [expanded, setExpanded] = useState<Key[]>(() => orgNodeKeys(buildSourceTree(org.node, new Map())));
  const [search, setSearch] = useState('');
  const [box, height] = useElementHeight<HTMLDivElement>();

  const text = searchText(search);
  const searching = text !== '';
  // Ships not expanded yet have no channels here: the server searches those (once typing pauses).
  const settledText = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const remote = useChannelSearch(org.id, settledText);
  // An answer to an earlier text (typing went on) must not open that text's ships.
  const remoteData = searching && remote.data?.name === text ? remote.data : undefined;
  const matchingShipIds = useMemo(() => shipsWithMatches(remoteData), [remoteData]);
  const nodes = useMemo(() => buildSourceTree(org.node, byShip, search, new Set(matchingShipIds)), [org.node, byShip, search, matchingShipIds]);
  const expandedKeys = useMemo(() => (searching ? [...new Set([...expanded, ...searchExpandedKeys(nodes)])] : expanded), [searching, expanded, nodes]);
  const ships = useMemo(() => shipsOf(org.node), [org.node]);
  const remoteSearching = searching && (remote.isFetching || settledText !== text);

  // The first ships with matches open as an expand would: wait time, channels, then subscriptions.
  useEffect(() => {
    for (const ship of shipsToOpen(matchingShipIds, ships, byShip)) void load(ship);
  }, [matchingShipIds, ships, byShip, load]);

  // Spec §2: an organisation with a single ship opens it straight away.
  const onlyShip = ships.length === 1 ? ships[0] : undefined;
  useEffect(() => {
    if (!onlyShip) return;
    setExpanded((keys) => (keys.includes(shipKey(onlyShip.id)) ? keys : [...keys, shipKey(onlyShip.id)]));
    void load(onlyShip);
  }, [onlyShip, load]);

  return (
    <Flex vertical gap={8} style={{ flex: 1, minHeight: 0 }}>
      <InputSearch
        allowClear
        placeholder={t('sourceTree.searchPrompt')}
        aria-label={t('sourceTree.searchPrompt')}
        // The search runs as one types; the button says what it is (it has only an icon).
        enterButton={<Button icon={<SearchOutlined />} aria-label={t('sourceTree.searchButton')} title={t('sourceTree.searchButton')} />}
        value={search}
        loading={remoteSearching}
        onChange={(e) => setSearch(e.target.value)}
      />
      {/* The second press of a double-click (which plays) would select the row's text: not here. */}
      <div
        ref={box}
        style={{ flex: 1, minHeight: 0 }}
        aria-label={actions.hint}
        title={actions.hint}
        aria-busy={remoteSearching}
        onMouseDown={(event) => {
          if (event.detail > 1) event.preventDefault();
        }}
      >
        {nodes.length === 0 && remoteSearching ? (
          <Flex gap={6} align="center" justify="center" style={{ padding: 16 }}>
            <Spin size="small" />
            <Typography.Text type="secondary">{t('sourceTree.searching')}</Typography.Text>
          </Flex>
        ) : nodes.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={searching ? t('sourceTree.noMatch') : t('sourceTree.noShips')} />
        ) : (
          <Tree<SourceNode>
            // Virtual: only the rows on screen are rendered (and subscribed), so hundreds of ships stay fast.
            height={Math.max(height, 100)}
            virtual
            blockNode
            treeData={nodes}
            fieldNames={{ key: 'key', children: 'children' }}
            expandedKeys={expandedKeys}
            selectable={actions.select !== undefined}
            selectedKeys={actions.select?.key ? [actions.select.key] : []}
            onSelect={(_, { node }) => actions.select?.onSelect(node)}
            titleRender={(node) => <NodeTitle node={node} />}
            onExpand={(keys, { node, expanded: opening }) => {
              setExpanded(keys);
              if (opening && node.kind === 'ship' && byShip.get(node.ship.id)?.status !== 'ready') void load(node.ship);
            }}
            // A click on a ship's name opens or closes it as its caret does; the second click of a
            // double-click (which plays the ship) leaves it as the first one put it.
            onClick={(event, node) => {
              if (node.kind !== 'ship' || event.detail > 1) return;
              const key = node.key;
              const opening = !expandedKeys.includes(key);
              setExpanded((keys) => (opening ? [...keys, key] : keys.filter((k) => k !== key)));
              if (opening && byShip.get(node.ship.id)?.status !== 'ready') void load(node.ship);
            }}
            onDoubleClick={(_, node) => actions.open(node)}
            onRightClick={({ event, node }) => {
              const openShip = actions.openShip;
              if (node.kind !== 'ship' || !openShip) return;
              event.preventDefault();
              void load(node.ship).then((loaded) => {
                if (loaded) openShip(node.ship, loaded.channels, loaded.waitTime);
              });
            }}
          />
        )}
      </div>
      {actions.footer}
    </Flex>
  );
}

/** The left sidebar's content: organisation picker, search and the virtual source tree. */
export function SourceTree({ actions }: { actions: SourceTreeActions }) {
  const { t } = useTranslation();
  const { orgs, selected, isLoading } = useOrganisations();
  return (
    <Flex vertical gap={8} style={{ height: '100%', padding: 12, boxSizing: 'border-box' }}>
      <Typography.Text type="secondary">{t('sourceTree.organisation')}</Typography.Text>
      <Select
        aria-label={t('sourceTree.organisation')}
        placeholder={t('sourceTree.organisationPrompt')}
        loading={isLoading}
        value={selected?.id}
        onChange={(id: string) => pickOrg(id)}
        // Sub-organisations indented under their parent; the title is what search and tooltips use.
        options={orgs.map((org) => ({ value: org.id, title: org.displayName, label: <span style={{ paddingInlineStart: org.depth * 14 }}>{org.displayName}</span> }))}
        optionLabelProp="title"
        showSearch={{ optionFilterProp: 'title' }}
      />
      {selected ? <OrgSourceTree key={selected.id} org={selected} actions={actions} /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sourceTree.organisationPrompt')} />}
    </Flex>
  );
}
