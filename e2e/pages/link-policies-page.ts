import { expect, type Locator, type Page } from '@playwright/test';
import type { DefinitionLevel, PolicyLink } from '@ship-cctv/protocol';
import { linkPoliciesEn, linkPoliciesZhCN } from '../../apps/web/src/features/link-policies/locales.ts';
import { type Language, TEXTS } from './monitor-page.ts';

const SCREEN_TEXTS = { 'zh-CN': linkPoliciesZhCN, en: linkPoliciesEn } as const;

/**
 * The link-policy screen (header → settings → 链路策略 / Link policies): a dialog with one row per
 * link type. Rows are found by their `data-policy-row` attribute, their controls by the labels the
 * screen gives them ("FBB · 1/4 分屏").
 */
export class LinkPoliciesDialog {
  readonly texts: (typeof SCREEN_TEXTS)[Language];
  readonly shellTexts: (typeof TEXTS)[Language];
  readonly dialog: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language,
    orgName: string,
  ) {
    this.texts = SCREEN_TEXTS[language];
    this.shellTexts = TEXTS[language];
    this.dialog = page.getByRole('dialog', { name: this.texts.title.replace('{{org}}', orgName) });
  }

  /** Opens it from the header's settings menu and waits for the rows. */
  async open(): Promise<void> {
    const item = this.page.getByRole('menuitem', { name: this.shellTexts.linkPolicies.menu });
    // A click on a menu still sliding open can be lost: as an operator would, open the menu and
    // click again while no dialog came. The screen's code loads when first opened: seconds on a
    // busy machine.
    await expect(async () => {
      if (await this.dialog.isVisible()) return;
      if (!(await item.isVisible())) await this.page.getByRole('button', { name: this.shellTexts.shell.settings }).click({ timeout: 5_000 });
      await item.click({ timeout: 5_000 });
      await expect(this.dialog).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 40_000 });
    await expect(this.row('DEFAULT')).toBeVisible({ timeout: 15_000 });
  }

  /** Closes it by its corner button (antd names it in the page's language). */
  async close(): Promise<void> {
    await this.dialog.getByRole('button', { name: this.language === 'en' ? 'Close' : '关闭', exact: true }).click();
    await expect(this.dialog).toBeHidden();
  }

  row(link: PolicyLink): Locator {
    return this.dialog.locator(`[data-policy-row="${link}"]`);
  }

  source(link: PolicyLink): Locator {
    return this.row(link).locator('[data-policy-source]');
  }

  private label(link: PolicyLink, what: string): string {
    return this.texts.control.replace('{{link}}', this.texts.link[link]).replace('{{what}}', what);
  }

  /** The select of one view of a row (its input carries the label; the shown value is its `.ant-select`). */
  level(link: PolicyLink, view: 'manyCells' | 'fewCells' | 'fullScreen'): Locator {
    return this.row(link).locator('.ant-select', { has: this.page.getByLabel(this.label(link, this.texts.column[view]), { exact: true }) });
  }

  async setLevel(link: PolicyLink, view: 'manyCells' | 'fewCells' | 'fullScreen', level: DefinitionLevel): Promise<void> {
    // The previous choice's list may still be sliding away: only one list open at a time.
    const open = this.page.locator('.ant-select-dropdown:visible');
    await expect(open).toHaveCount(0);
    await this.level(link, view).click();
    await open.locator(`.ant-select-item-option[title="${this.texts.level[level]}"]`).click();
    await expect(this.level(link, view)).toHaveText(this.texts.level[level]);
    await expect(open).toHaveCount(0);
  }

  stills(link: PolicyLink): Locator {
    return this.row(link).getByLabel(this.label(link, this.texts.column.stills), { exact: true });
  }

  seconds(link: PolicyLink): Locator {
    return this.row(link).getByLabel(this.label(link, this.texts.seconds), { exact: true });
  }

  button(link: PolicyLink, text: string): Locator {
    return this.row(link).getByRole('button', { name: text, exact: true });
  }

  /** Saves a row and waits for the server's answer: the row is its own (custom), nothing unsaved. */
  async save(link: PolicyLink): Promise<void> {
    const answered = this.page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/api/v1/cctv/linkPolicy/`) && r.url().endsWith(`/${link}`));
    await this.button(link, this.texts.save).click();
    expect((await answered).ok()).toBe(true);
    await expect(this.page.getByText(this.texts.saved.replace('{{link}}', this.texts.link[link]), { exact: true })).toBeVisible();
    await expect(this.source(link)).toHaveAttribute('data-policy-source', 'own');
    await expect(this.row(link).locator('[data-policy-unsaved]')).toHaveCount(0);
  }

  /** Restores a row's defaults after the confirmation. */
  async restore(link: PolicyLink): Promise<void> {
    await this.button(link, this.texts.restore).click();
    await this.page.locator('.ant-popconfirm:visible').getByRole('button', { name: this.texts.restoreOk, exact: true }).click();
    await expect(this.page.getByText(this.texts.restored.replace('{{link}}', this.texts.link[link]), { exact: true })).toBeVisible();
    await expect(this.source(link)).toHaveAttribute('data-policy-source', 'default');
  }
}
