import { useSyncExternalStore } from 'react';
import { sessionStore, useSessionUser } from '../../lib/session-store.ts';
import { useOrgShipTree } from './api/org-ship-tree.ts';
import { orgMemory, type OrgMemory } from './org-memory.ts';
import { flattenOrgs, type OrgOption } from './tree.ts';

/**
 * The organisation the operator picked, outside React so the header (brand) and the sidebar
 * (picker, tree) share it without a provider; remembered per user across reloads (org-memory.ts).
 */
export function pickOrg(orgId: string, memory: OrgMemory = orgMemory): void {
  memory.remember(sessionStore.user?.id, orgId);
}

function usePickedOrgId(userId: string | undefined, memory: OrgMemory = orgMemory): string | null {
  return useSyncExternalStore(
    memory.subscribe,
    () => memory.get(userId),
    () => memory.get(userId),
  );
}

/**
 * The selected organisation: the picked (or remembered) one if this user may still see it, else
 * the only one when there is just one (spec §2 "selected automatically"), else none.
 */
export function resolveSelectedOrg(orgs: readonly OrgOption[], picked: string | null): OrgOption | undefined {
  const chosen = picked ? orgs.find((org) => org.id === picked) : undefined;
  return chosen ?? (orgs.length === 1 ? orgs[0] : undefined);
}

export function useOrganisations(): { orgs: OrgOption[]; selected: OrgOption | undefined; isLoading: boolean } {
  const tree = useOrgShipTree();
  const user = useSessionUser();
  const picked = usePickedOrgId(user?.id);
  const orgs = tree.data ? flattenOrgs(tree.data.orgShipTreeNodes) : [];
  return { orgs, selected: resolveSelectedOrg(orgs, picked), isLoading: tree.isLoading };
}
