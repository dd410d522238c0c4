import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { COOKIES, TOKEN_HEADER, type CameraEventSettings, type EventInfo, type EventPage, type OrgEventSettings } from '@ship-cctv/protocol';
import { eventsEn, eventsZhCN } from '../../apps/web/src/features/events/locales.ts';
import { type Language, PAGE_LOAD_MS, TEXTS } from './monitor-page.ts';

export const EVENT_TEXTS = { 'zh-CN': eventsZhCN, en: eventsEn } as const;

/** The session token of a page signed in (the API's calls then share its session). */
async function tokenOf(page: Page): Promise<string> {
  const token = (await page.context().cookies()).find((c) => c.name === COOKIES.token)?.value;
  if (!token) throw new Error('the page is not signed in');
  return token;
}

/** Shore's events API, as the page's user. */
export class EventsApi {
  constructor(
    readonly request: APIRequestContext,
    readonly page: Page,
  ) {}

  private async call<T>(method: string, path: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(`/api/v1/cctv/events${path}`, { method, headers: { [TOKEN_HEADER]: await tokenOf(this.page) }, data });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  list(query: Record<string, string | number | boolean> = {}): Promise<EventPage> {
    const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return this.call<EventPage>('GET', q ? `?${q}` : '');
  }

  one(id: string): Promise<EventInfo> {
    return this.call<EventInfo>('GET', `/${encodeURIComponent(id)}`);
  }

  async status(id: string): Promise<number> {
    const res = await this.request.get(`/api/v1/cctv/events/${encodeURIComponent(id)}`, { headers: { [TOKEN_HEADER]: await tokenOf(this.page) } });
    return res.status();
  }

  unacknowledged(): Promise<{ ships: { shipId: string; count: number }[] }> {
    return this.call('GET', '/unacknowledged');
  }

  cameraSettings(cameraId: string): Promise<CameraEventSettings> {
    return this.call('GET', `/settings/camera/${encodeURIComponent(cameraId)}`);
  }

  putCameraSettings(cameraId: string, settings: CameraEventSettings): Promise<CameraEventSettings> {
    return this.call('PUT', `/settings/camera/${encodeURIComponent(cameraId)}`, settings);
  }

  orgSettings(orgId: string): Promise<OrgEventSettings> {
    return this.call('GET', `/settings/org/${encodeURIComponent(orgId)}`);
  }

  putOrgSettings(orgId: string, settings: OrgEventSettings): Promise<OrgEventSettings> {
    return this.call('PUT', `/settings/org/${encodeURIComponent(orgId)}`, settings);
  }

  /** Waits until a ship's analysis has sent `count` events with pictures to shore (the demo's walkers and boats). */
  async waitForEvents(shipId: string, count = 1, timeout = 150_000): Promise<EventInfo[]> {
    let events: EventInfo[] = [];
    await expect
      .poll(
        async () => {
          events = (await this.list({ shipId, size: 50 })).events;
          return events.length;
        },
        { timeout, intervals: [2_000], message: `events of ${shipId} from the demo fleet` },
      )
      .toBeGreaterThanOrEqual(count);
    return events;
  }
}

/** The desktop events screen (/monitor/events): filters, list or timeline, and the actions of each event. */
export class EventsScreen {
  readonly texts: (typeof EVENT_TEXTS)[Language];
  readonly shellTexts: (typeof TEXTS)[Language];
  readonly screen: Locator;
  readonly list: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language,
  ) {
    this.texts = EVENT_TEXTS[language];
    this.shellTexts = TEXTS[language];
    this.screen = page.getByTestId('events-page');
    this.list = page.getByTestId('events-list');
  }

  /** From the top menu (shore playback → events) on the main preview, as an operator gets there. */
  async openFromMenu(): Promise<void> {
    await this.page.goto('/monitor/live/index');
    const shore = this.page.getByRole('menuitem', { name: this.shellTexts.shell.menu.shorePlayback });
    await expect(async () => {
      await shore.hover({ timeout: 5_000 });
      await this.page.getByRole('menuitem', { name: this.shellTexts.events.menu, exact: true }).click({ timeout: 5_000 });
    }).toPass({ timeout: PAGE_LOAD_MS });
    await expect(this.page).toHaveURL(/\/monitor\/events$/);
    await expect(this.screen).toBeVisible({ timeout: PAGE_LOAD_MS });
  }

  row(id: string): Locator {
    return this.list.locator(`tr[data-event-id="${id}"]`);
  }

  /** Picks an option of a filter's select (found by its data attribute). */
  async filter(name: 'ship' | 'camera' | 'class' | 'acknowledged', option: string): Promise<void> {
    const open = this.page.locator('.ant-select-dropdown:visible');
    await expect(open).toHaveCount(0);
    await this.screen.locator(`[data-event-filter="${name}"]`).click();
    await open.locator('.ant-select-item-option', { hasText: option }).first().click();
    await expect(open).toHaveCount(0);
  }

  /** The picture of a row has loaded from shore (a real JPEG, decoded). */
  async expectPicture(id: string): Promise<void> {
    const img = this.row(id).locator(`img[src$="/events/${id}/picture"]`);
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 }).toBeGreaterThan(0);
  }
}

/** The detection settings dialog (header → settings → 事件检测 / Event detection). */
export class EventSettingsDialog {
  readonly texts: (typeof EVENT_TEXTS)[Language];
  readonly shellTexts: (typeof TEXTS)[Language];
  readonly dialog: Locator;

  constructor(
    readonly page: Page,
    readonly language: Language,
    orgName: string,
  ) {
    this.texts = EVENT_TEXTS[language];
    this.shellTexts = TEXTS[language];
    this.dialog = page.getByRole('dialog', { name: this.texts.settings.title.replace('{{org}}', orgName) });
  }

  async open(): Promise<void> {
    const item = this.page.getByRole('menuitem', { name: this.shellTexts.events.settingsMenu });
    await expect(async () => {
      if (await this.dialog.isVisible()) return;
      if (!(await item.isVisible())) await this.page.getByRole('button', { name: this.shellTexts.shell.settings }).click({ timeout: 5_000 });
      await item.click({ timeout: 5_000 });
      await expect(this.dialog).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 40_000 });
  }

  async chooseShip(label: string): Promise<void> {
    await this.dialog.locator('[data-event-settings="ship"]').click();
    await this.page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label }).first().click();
  }

  form(cameraId: string): Locator {
    return this.dialog.locator(`[data-testid="camera-event-settings"][data-camera="${cameraId}"]`);
  }

  /** Clicks points on the picture, each given as fractions of its width and height. */
  async drawPolygon(kind: 'zone' | 'mask', points: readonly (readonly [number, number])[]): Promise<void> {
    await this.dialog.getByTestId(kind === 'zone' ? 'zone-add' : 'mask-add').click();
    const canvas = this.dialog.getByTestId('zone-canvas');
    const box = await canvas.boundingBox();
    if (!box) throw new Error('the picture is not on screen');
    for (const [x, y] of points) await canvas.click({ position: { x: x * box.width, y: y * box.height } });
    await this.dialog.getByTestId('zone-finish').click();
  }
}
