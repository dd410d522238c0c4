import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DefinitionModel, ShipConfig } from '@ship-cctv/protocol';
import { apiClient } from '../../lib/api-client.ts';

/** `GET /api/v1/cctv/shipGroup/ship/list?orgId=&shipId=` (spec §7): a ship's definition templates. */
export async function getShipConfig(orgId: string, shipId: string, signal?: AbortSignal): Promise<ShipConfig> {
  const answer = await apiClient.get<{ data: ShipConfig }>('/cctv/shipGroup/ship/list', { query: { orgId, shipId }, signal });
  return answer.data;
}

export function shipConfigQuery(orgId: string, shipId: string) {
  return queryOptions({
    queryKey: ['live', 'shipConfig', orgId, shipId] as const,
    queryFn: ({ signal }) => getShipConfig(orgId, shipId, signal),
    // Templates are set up by an administrator and rarely change; every cell of a ship shares one answer.
    staleTime: 5 * 60_000,
  });
}

export function useShipConfig(orgId: string, shipId: string) {
  return useQuery(shipConfigQuery(orgId, shipId));
}

export interface DefinitionChoice {
  groupId: number;
  groupName: string;
  /** The group's English name, when the ship's config has one. */
  groupNameEn?: string | undefined;
  model: DefinitionModel;
}

/**
 * A definition group's or model's name in the page's language: the spec's displayName is the
 * Chinese one; the English one is shown in English when known, else the displayName as it is.
 */
export function definitionName(named: { displayName: string; displayNameEn?: string | undefined }, language: string): string {
  return language === 'en' && named.displayNameEn ? named.displayNameEn : named.displayName;
}

/**
 * The models an operator may pick, group by group. Groups without models are dropped (spec §3);
 * `defaultModelId` is the default group's default model, undefined when the ship has none (the
 * server then refuses to play without a chosen template: "无默认清晰度模板").
 */
export function definitionChoices(config: ShipConfig): { choices: DefinitionChoice[]; defaultModelId: number | undefined } {
  const choices = config.groupAliasResDTOS.flatMap((g) => g.models.map((model) => ({ groupId: g.id, groupName: g.displayName, groupNameEn: g.displayNameEn, model })));
  const defaultGroup = config.groupAliasResDTOS.find((g) => g.id === config.defaultGroupId && g.models.length > 0);
  const defaultModelId = defaultGroup?.models.some((m) => m.id === defaultGroup.defaultModelId) ? (defaultGroup.defaultModelId ?? undefined) : undefined;
  return { choices, defaultModelId };
}
