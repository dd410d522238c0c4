import { useSyncExternalStore } from 'react';
import { useOrgShipTree } from './api/org-ship-tree.ts';
import { flattenOrgs, type OrgOption } from './tree.ts';

/**
 * The organisation the operator picked, outside React so the header (brand) and the sidebar
 * (picker, tree) share it without a provider.
 */
let pickedOrgId: string | null = null;
const listeners = new Set<() => void>();

export function pickOrg(orgId: string | null): void {
  if (orgId === pickedOrgId) return;
  pickedOrgId = orgId;
  for (const listener of [...listeners]) listener();
}

function usePickedOrgId(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pickedOrgId,
    () => pickedOrgId,
  );
}

/**
 * The selected organisation: the picked one if this user may see it, else the only one when
 * there is just one (spec §2 "selected automatically"), else none.
 */
export function resolveSelectedOrg(orgs: readonly OrgOption[], picked: string | null): OrgOption | undefined {
  const chosen = picked ? orgs.find((org) => org.id === picked) : undefined;
  return chosen ?? (orgs.length === 1 ? orgs[0] : undefined);
}

export function useOrganisations(): { orgs: OrgOption[]; selected: OrgOption | undefined; isLoading: boolean } {
  const tree = useOrgShipTree();
  const picked = usePickedOrgId();
  const orgs = tree.data ? flattenOrgs(tree.data.orgShipTreeNodes) : [];
  return { orgs, selected: resolveSelectedOrg(orgs, picked), isLoading: tree.isLoading };
}
