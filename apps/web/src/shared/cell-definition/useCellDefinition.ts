import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShipStatus } from '../../lib/realtime/index.ts';
import type { PlayableSource } from '../playable-source.ts';
import { useShipConfig } from '../player-cell/ship-config.ts';
import type { CellDefinition, CellView } from './choose-definition.ts';
import { useLinkPolicies } from './link-policy-api.ts';

export interface CellDefinitionState {
  /** Whether the choice is known: until then the cell plays nothing (a start at another definition would cost the ship a stream). */
  ready: boolean;
  /** The template to ask for; undefined: the ship's default. */
  templateId: number | undefined;
  /** Why, in the page's language ("Lowest resolution: FBB link, 16-cell grid"); undefined while unknown. */
  reason: string | undefined;
  choice: CellDefinition | undefined;
  /** The operator picks a definition: it sticks for this cell. */
  choose(templateId: number): void;
}

/**
 * A live cell's definition (issue 19 items 2 and 4), following the cell's view and the ship's link
 * as they change: the organisation's link policy picks it, the operator's pick overrides it for as
 * long as the cell shows this channel (the grid keys cells by camera, so another channel is another
 * cell). `view` undefined: no policy — the ship's default, as before (a cell outside a grid).
 */
export function useCellDefinition(source: PlayableSource, view: CellView | undefined, initial?: number): CellDefinitionState {
  const { t } = useTranslation();
  const [explicit, setExplicit] = useState<number | undefined>(initial);
  const config = useShipConfig(source.orgId, source.shipId);
  const policies = useLinkPolicies(source.orgId);
  const { linkType } = useShipStatus(source.shipName);
  if (!view || explicit !== undefined) {
    return { ready: true, templateId: explicit, reason: explicit !== undefined && view ? t('cellDefinition.explicit') : undefined, choice: explicit === undefined ? undefined : { kind: 'explicit', templateId: explicit }, choose: setExplicit };
  }
  // A failed answer plays the ship's default, as before policies: never nothing.
  const ready = (config.data !== undefined || config.isError) && (policies.data !== undefined || policies.isError);
  if (!ready || !config.data || !policies.data) return { ready, templateId: undefined, reason: undefined, choice: undefined, choose: setExplicit };
  const { chooseCellDefinition, reasonFor } = policies.data.rules;
  const choice = chooseCellDefinition({ config: config.data, policies: policies.data.byLink, linkType, view, explicit: undefined });
  // A ship without a default template: the server says 无默认清晰度模板, no policy to explain.
  if (choice.kind !== 'policy' || choice.templateId === undefined) return { ready, templateId: choice.templateId, reason: undefined, choice, choose: setExplicit };
  const reason = reasonFor(choice, t);
  return { ready, templateId: choice.templateId, reason, choice, choose: setExplicit };
}
