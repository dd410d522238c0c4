import type { CarouselKind } from '@ship-cctv/protocol';

/** React Query keys of the carousel feature, in one place so a change invalidates the right ones. */
export const carouselKeys = {
  all: ['carousel'] as const,
  settings: () => ['carousel', 'settings'] as const,
  lists: () => ['carousel', 'list'] as const,
  list: (kind: CarouselKind, orgId: string | undefined) => ['carousel', 'list', kind, orgId] as const,
  details: () => ['carousel', 'detail'] as const,
  detail: (kind: CarouselKind, id: string) => ['carousel', 'detail', kind, id] as const,
  status: (id: string) => ['carousel', 'status', id] as const,
  estimate: (body: string) => ['carousel', 'estimate', body] as const,
};

/** The path segment of a kind's calls: simple carousels are `…1`, tasks `…2` (spec §7). */
export const kindNumber = (kind: CarouselKind): 1 | 2 => (kind === 'simple' ? 1 : 2);
