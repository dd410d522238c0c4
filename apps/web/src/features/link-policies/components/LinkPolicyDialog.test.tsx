import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { LINK_POLICY_DEFAULTS, POLICY_LINKS, type LinkPolicy, type LinkPolicyList, type PolicyLink } from '@ship-cctv/protocol';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { ApiError, apiClient } from '../../../lib/api-client.ts';
import { LinkPolicyDialog } from './LinkPolicyDialog.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const ORG = { id: 'blueocean-tankers', displayName: 'Blue Ocean Tankers' };

function listOf(canEdit: boolean, change: Partial<Record<PolicyLink, Partial<LinkPolicy>>> = {}): LinkPolicyList {
  return {
    orgId: ORG.id,
    canEdit,
    policies: POLICY_LINKS.map((linkType) => ({ linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' as const, ...change[linkType] })),
  };
}

/** A server that keeps the organisation's policies, answering GET, PUT and DELETE as the real one does. */
function fakeServer(initial: LinkPolicyList) {
  let list = initial;
  const get = vi.spyOn(apiClient, 'get').mockImplementation(async (path: string) => {
    if (path === `/cctv/linkPolicy/${ORG.id}`) return structuredClone(list) as never;
    throw new ApiError('envelope', 404, `unexpected ${path}`, 404);
  });
  let hold: Promise<void> | undefined;
  const put = vi.spyOn(apiClient, 'request').mockImplementation(async (method: string, path: string, options) => {
    const linkType = path.split('/').pop() as PolicyLink;
    expect(method).toBe('PUT');
    expect(path).toBe(`/cctv/linkPolicy/${ORG.id}/${linkType}`);
    await hold;
    list = { ...list, policies: list.policies.map((p) => (p.linkType === linkType ? { ...p, ...(options?.body as object), custom: true, source: 'own' as const } : p)) };
    return structuredClone(list) as never;
  });
  const del = vi.spyOn(apiClient, 'del').mockImplementation(async (path: string) => {
    const linkType = path.split('/').pop() as PolicyLink;
    list = { ...list, policies: list.policies.map((p) => (p.linkType === linkType ? { linkType, ...LINK_POLICY_DEFAULTS[linkType], custom: false, source: 'default' as const } : p)) };
    return structuredClone(list) as never;
  });
  return {
    get,
    put,
    del,
    /** The next PUT waits until the returned function is called. */
    holdNextSave(): () => void {
      let release = () => {};
      hold = new Promise<void>((resolve) => {
        release = () => {
          hold = undefined;
          resolve();
        };
      });
      return release;
    },
  };
}

function renderDialog(language: 'en' | 'zh-CN' = 'en') {
  const onClose = vi.fn();
  render(
    <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
      <LinkPolicyDialog org={ORG} open onClose={onClose} />
    </AppProviders>,
  );
  return { onClose };
}

const row = async (link: PolicyLink) => {
  const table = await screen.findByTestId('link-policies');
  await waitFor(() => expect(table.querySelector(`[data-policy-row="${link}"]`)).not.toBeNull());
  return within(table.querySelector(`[data-policy-row="${link}"]`) as HTMLElement);
};

/**
 * A button by its text. (Role queries compute every element's style in jsdom: with antd's styles
 * one query takes seconds on a loaded machine, so the tests find controls by label and text.)
 */
const button = (scope: Pick<typeof screen, 'getByText'>, text: string) => scope.getByText(text, { selector: 'button, button *' }).closest('button') as HTMLButtonElement;
const queryButton = (scope: Pick<typeof screen, 'queryByText'>, text: string) => scope.queryByText(text, { selector: 'button, button *' });
/** The text an antd Select shows. */
const shown = (scope: Pick<typeof screen, 'getByLabelText'>, label: string) => scope.getByLabelText(label).closest('.ant-select')?.textContent;

/** Opens an antd Select by its label and picks an option by its text (in the dropdown just opened). */
async function choose(label: string, option: string) {
  const before = document.querySelectorAll('.ant-select-dropdown').length;
  fireEvent.mouseDown(screen.getByLabelText(label));
  await waitFor(() => expect(document.querySelectorAll('.ant-select-dropdown').length).toBe(before + 1));
  const dropdowns = document.querySelectorAll<HTMLElement>('.ant-select-dropdown');
  fireEvent.click(within(dropdowns[dropdowns.length - 1] as HTMLElement).getByText(option, { selector: '.ant-select-item-option-content' }));
  await waitFor(() => expect(shown(screen, label)).toBe(option));
}

describe('LinkPolicyDialog', { timeout: 60_000 }, () => {
  it("loads the organisation's policy per link type, with whose each is", async () => {
    const server = fakeServer(listOf(true, { FBB: { manyCells: 'lowest', fewCells: 'standard', fullScreen: 'best', custom: true, source: 'inherited', inheritedFrom: { orgId: 'blueocean', displayName: 'Blue Ocean Shipping' } } }));
    renderDialog();
    expect(await screen.findByText('Link policies: Blue Ocean Tankers')).toBeTruthy();
    const fbb = await row('FBB');
    expect(server.get).toHaveBeenCalledWith('/cctv/linkPolicy/blueocean-tankers', expect.anything());
    // Every link type has its row, in the API's order.
    const rows = [...document.querySelectorAll('[data-policy-row]')].map((r) => r.getAttribute('data-policy-row'));
    expect(rows).toEqual([...POLICY_LINKS]);
    expect(shown(fbb, 'FBB · 1/4-cell grid')).toBe('Standard');
    expect(fbb.getByText('From Blue Ocean Shipping').getAttribute('data-policy-source')).toBe('inherited');
    // Iridium's defaults: stills every 30 s; a row of the defaults says so and has nothing to restore.
    const iridium = await row('IRIDIUM');
    expect(iridium.getByLabelText('Iridium · Stills').getAttribute('aria-checked')).toBe('true');
    expect((iridium.getByLabelText('Iridium · s') as HTMLInputElement).value).toBe('30');
    expect(iridium.getByText('Default').getAttribute('data-policy-source')).toBe('default');
    expect(queryButton(iridium, 'Restore defaults')).toBeNull();
    // Nothing changed yet: nothing to save or undo.
    expect(queryButton(iridium, 'Save')).toBeNull();
    expect(queryButton(iridium, 'Undo changes')).toBeNull();
    expect(screen.queryByTestId('link-policies-read-only')).toBeNull();
  });

  it('saves an edited row with progress, then shows it as custom; restores the defaults after a confirmation', async () => {
    const server = fakeServer(listOf(true));
    renderDialog();
    const fbb = await row('FBB');
    await choose('FBB · 1/4-cell grid', 'Standard');
    fireEvent.click(fbb.getByLabelText('FBB · Stills'));
    fireEvent.change(fbb.getByLabelText('FBB · s'), { target: { value: '20' } });
    // FBB's default for a used-up budget is pictures only; a block instead.
    expect(shown(fbb, 'FBB · Budget used up')).toBe('Pictures only');
    await choose('FBB · Budget used up', 'Blocked (override)');
    expect(fbb.getByText('Unsaved')).toBeTruthy();

    const release = server.holdNextSave();
    fireEvent.click(button(fbb, 'Save'));
    // While the server answers: the button spins and the row's controls wait.
    await waitFor(() => expect(button(fbb, 'Save').className).toContain('ant-btn-loading'));
    expect(fbb.getByLabelText('FBB · Stills').hasAttribute('disabled')).toBe(true);
    release();
    expect(await screen.findByText('FBB link policy saved')).toBeTruthy();
    expect(server.put).toHaveBeenCalledWith('PUT', '/cctv/linkPolicy/blueocean-tankers/FBB', {
      body: { manyCells: 'satellite', fewCells: 'standard', fullScreen: 'standard', stills: true, stillsEverySeconds: 20, budgetPolicy: 'block' },
    });
    await waitFor(() => expect(fbb.getByText('Custom').getAttribute('data-policy-source')).toBe('own'));
    expect(fbb.queryByText('Unsaved')).toBeNull();

    fireEvent.click(button(fbb, 'Restore defaults'));
    expect(await screen.findByText('Drop the custom FBB policy? The link follows the organisation above, or the defaults.')).toBeTruthy();
    fireEvent.click(button(screen, 'Restore'));
    expect(await screen.findByText('FBB back to the defaults')).toBeTruthy();
    expect(server.del).toHaveBeenCalledWith('/cctv/linkPolicy/blueocean-tankers/FBB');
    await waitFor(() => expect(fbb.getByText('Default').getAttribute('data-policy-source')).toBe('default'));
    // FBB's default: the satellite tier in every grid.
    expect(shown(fbb, 'FBB · 1/4-cell grid')).toBe('Satellite (≤32 kbit/s)');
  });

  it('refuses a bigger view asking for less before asking the server, and undoes a change', async () => {
    const server = fakeServer(listOf(true));
    renderDialog();
    const vsat = await row('VSAT');
    await choose('VSAT (and FX) · Full screen', 'Lowest');
    expect(await screen.findByText('VSAT (and FX): a bigger view must not ask for a lower resolution (9/16-cell ≤ 1/4-cell ≤ full screen)')).toBeTruthy();
    expect(button(vsat, 'Save').disabled).toBe(true);
    fireEvent.click(button(vsat, 'Undo changes'));
    await waitFor(() => expect(screen.queryByText(/a bigger view must not ask/)).toBeNull());
    expect(shown(vsat, 'VSAT (and FX) · Full screen')).toBe('Best');
    expect(server.put).not.toHaveBeenCalled();
  });

  it("says why a save failed, in the server's words or as not allowed, and keeps the change", async () => {
    const server = fakeServer(listOf(true));
    server.put.mockRejectedValueOnce(new ApiError('envelope', 400, 'a bigger view must not ask for a lower definition', 400));
    server.put.mockRejectedValueOnce(new ApiError('envelope', 403, 'Forbidden', 403));
    renderDialog();
    const fourthG = await row('FOURTHG');
    await choose('4G · 9/16-cell grid', 'Standard');
    fireEvent.click(button(fourthG, 'Save'));
    expect(await screen.findByText('4G could not be saved: a bigger view must not ask for a lower definition')).toBeTruthy();
    expect(fourthG.getByText('Unsaved')).toBeTruthy();
    fireEvent.click(button(fourthG, 'Save'));
    expect(await screen.findByText('Only managers of this organisation may change link policies')).toBeTruthy();
    expect(shown(fourthG, '4G · 9/16-cell grid')).toBe('Standard');
  });

  it('says so when the policies cannot be loaded', async () => {
    vi.spyOn(apiClient, 'get').mockRejectedValue(new ApiError('envelope', 403, 'No access to this organisation', 403));
    renderDialog();
    expect(await screen.findByText('Link policies could not be loaded: No access to this organisation', undefined, { timeout: 5_000 })).toBeTruthy();
  });

  it('shows the policies read-only, in Chinese, to a user who may not change them', async () => {
    const server = fakeServer(listOf(false, { FBB: { fewCells: 'standard', custom: true, source: 'own' } }));
    renderDialog('zh-CN');
    expect(await screen.findByText('链路策略：Blue Ocean Tankers')).toBeTruthy();
    const fbb = await row('FBB');
    expect(screen.getByTestId('link-policies-read-only').textContent).toContain('只有该组织或上级组织的管理员可以修改链路策略');
    expect(fbb.getByText('标准', { selector: '[data-policy-field="fewCells"]' })).toBeTruthy();
    expect(fbb.getByText('卫星（≤32 kbit/s）', { selector: '[data-policy-field="manyCells"]' })).toBeTruthy();
    expect(fbb.getByText('自定义')).toBeTruthy();
    expect((await row('IRIDIUM')).getByText('每 30 秒')).toBeTruthy();
    // Nothing to edit, save or restore.
    const table = screen.getByTestId('link-policies');
    expect(table.querySelectorAll('.ant-select, .ant-switch, input')).toHaveLength(0);
    expect(queryButton(screen, '保存')).toBeNull();
    expect(queryButton(screen, '恢复默认')).toBeNull();
    expect(server.put).not.toHaveBeenCalled();
  });
});
