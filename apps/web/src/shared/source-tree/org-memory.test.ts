import { describe, expect, it } from 'vitest';
import type { OrgShipTreeNode } from '@ship-cctv/protocol';
import { createOrgMemory, ORG_STORAGE_PREFIX } from './org-memory.ts';
import { resolveSelectedOrg } from './selection.ts';
import { flattenOrgs } from './tree.ts';

/** A Storage of this test's own; `broken` makes it throw as in some privacy modes. */
function memoryStorage(broken = false) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => {
      if (broken) throw new Error('denied');
      return items.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (broken) throw new Error('denied');
      items.set(key, value);
    },
  };
}

const org = (id: string, children: OrgShipTreeNode[] = []): OrgShipTreeNode => ({
  organizationid: id,
  organizationname: id,
  displayName: id.toUpperCase(),
  parentId: null,
  orgShipTreeNodes: children,
  shipList: [],
});

describe('the remembered organisation', () => {
  it('survives a reload: a new memory on the same storage answers the pick, per user', () => {
    const storage = memoryStorage();
    const first = createOrgMemory(storage);
    first.remember('u-demo', 'njzsz');
    expect(storage.items.get(`${ORG_STORAGE_PREFIX}u-demo`)).toBe('njzsz');

    const afterReload = createOrgMemory(storage);
    expect(afterReload.get('u-demo')).toBe('njzsz');
    // Another user in the same browser does not inherit it.
    expect(afterReload.get('u-other')).toBeNull();
    expect(afterReload.get(undefined)).toBeNull();
  });

  it('tells its listeners of a new pick, and only of a change', () => {
    const memory = createOrgMemory(memoryStorage());
    let calls = 0;
    const stop = memory.subscribe(() => calls++);
    memory.remember('u', 'a');
    memory.remember('u', 'a');
    memory.remember('u', 'b');
    expect(calls).toBe(2);
    stop();
    memory.remember('u', 'c');
    expect(calls).toBe(2);
    // Without a signed-in user nothing is kept.
    memory.remember(undefined, 'x');
    expect(memory.get(undefined)).toBeNull();
  });

  it('still works for the page when storage refuses', () => {
    const memory = createOrgMemory(memoryStorage(true));
    expect(memory.get('u')).toBeNull();
    memory.remember('u', 'a');
    expect(memory.get('u')).toBe('a');
  });

  it('selects the remembered organisation if still visible, else the only one, else none', () => {
    const two = flattenOrgs([org('blueocean', [org('tankers')]), org('njzsz')]);
    expect(resolveSelectedOrg(two, 'tankers')?.id).toBe('tankers');
    expect(resolveSelectedOrg(two, null)).toBeUndefined();
    // Remembered, but the user may no longer see it: nothing forced on them.
    expect(resolveSelectedOrg(two, 'gone')).toBeUndefined();
    const one = flattenOrgs([org('njzsz')]);
    expect(resolveSelectedOrg(one, 'blueocean')?.id).toBe('njzsz');
    expect(resolveSelectedOrg(one, null)?.id).toBe('njzsz');
  });
});
