import { useCallback, useState } from 'react';
import { Empty, Flex, Select, Typography } from 'antd';
import { useCarouselTranslation as useTranslation } from '../texts.ts';
import { useSearchParams } from 'react-router';
import type { Carousel, CarouselKind } from '@ship-cctv/protocol';
import { pickOrg, useOrganisations } from '../../../shared/source-tree/index.ts';
import { CarouselEditor, type EditorTarget } from './CarouselEditor.tsx';
import { CarouselList } from './CarouselList.tsx';
import { CarouselPlayer } from './CarouselPlayer.tsx';

/**
 * `?play=<id>` (with `&kind=simple|task` when opened from the list): the player is open, and a
 * reload lands back in it. Without a kind, the player finds it out.
 */
export function playParams(params: URLSearchParams): { id: string; kind: CarouselKind | undefined } | undefined {
  const id = params.get('play');
  if (!id) return undefined;
  const kind = params.get('kind');
  return { id, kind: kind === 'simple' || kind === 'task' ? kind : undefined };
}

/**
 * /carouselConfig (spec §2): the chosen organisation's carousels — simple ones and tasks —, the
 * editor, and the player over the whole window while `?play=` names a carousel.
 */
export function CarouselPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { orgs, selected: org, isLoading } = useOrganisations();
  const [kind, setKind] = useState<CarouselKind>('simple');
  const [editing, setEditing] = useState<EditorTarget>();
  const playing = playParams(params);

  const playedKind = playing?.kind;
  // Back on the list at the tab of the carousel watched (after a reload too, from the URL).
  const exit = useCallback(() => {
    if (playedKind) setKind(playedKind);
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.delete('play');
      next.delete('kind');
      return next;
    });
  }, [playedKind, setParams]);
  const play = (c: Carousel) => setParams({ play: c.id, kind: c.kind });

  // The player alone: the list's status subscriptions and tables are not needed behind it.
  if (playing) return <CarouselPlayer key={playing.id} id={playing.id} kind={playing.kind} onExit={exit} />;

  return (
    <Flex vertical gap={8} style={{ flex: 1, padding: 12, minHeight: 0, overflow: 'auto' }} data-testid="carousel-page">
      <Flex align="center" gap={8}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('carousel.title')}
        </Typography.Title>
        <span style={{ flex: 1 }} />
        <Typography.Text type="secondary">{t('carousel.organisation')}</Typography.Text>
        <Select
          style={{ width: 240 }}
          aria-label={t('carousel.organisation')}
          placeholder={t('carousel.organisationPrompt')}
          loading={isLoading}
          value={org?.id}
          onChange={(id: string) => pickOrg(id)}
          options={orgs.map((o) => ({ value: o.id, title: o.displayName, label: <span style={{ paddingInlineStart: o.depth * 14 }}>{o.displayName}</span> }))}
          optionLabelProp="title"
          showSearch={{ optionFilterProp: 'title' }}
        />
      </Flex>
      {org ? (
        <CarouselList
          orgId={org.id}
          kind={kind}
          onKindChange={setKind}
          onPlay={play}
          onEdit={(carousel) => setEditing({ kind: carousel.kind, carousel })}
          onCreate={(of) => setEditing({ kind: of })}
        />
      ) : (
        <Empty style={{ marginTop: 64 }} description={t('carousel.chooseOrganisation')} />
      )}
      <CarouselEditor
        target={editing}
        orgId={org?.id}
        onClose={() => setEditing(undefined)}
        onSaved={(carousel) => {
          setEditing(undefined);
          setKind(carousel.kind);
        }}
      />
    </Flex>
  );
}
