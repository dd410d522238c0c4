import type { APIRequestContext, Page } from '@playwright/test';
import type { PlayCommand } from '@ship-cctv/protocol';
import type { PlayerState } from '../src/index.ts';
import type { Snapshot, StartOptions } from './harness/page.ts';

/** The harness page: starts the player, reads what it recorded, drives the harness server. */
export class PlayerPage {
  constructor(
    readonly page: Page,
    private readonly request: APIRequestContext,
  ) {}

  async open(): Promise<void> {
    await this.page.goto('/');
    await this.page.waitForFunction(() => 'harness' in window);
  }

  start(options: StartOptions): Promise<void> {
    return this.page.evaluate((o) => window.harness.start(o), options);
  }

  snapshot(): Promise<Snapshot> {
    return this.page.evaluate(() => window.harness.snapshot());
  }

  async waitForState(state: PlayerState, timeout = 15_000): Promise<void> {
    await this.page.waitForFunction((s) => window.harness.snapshot().state === s, state, { timeout });
  }

  /** Until the picture has moved `seconds` past `from` while playing. */
  async waitForPlayback(from: number, seconds: number, timeout = 15_000): Promise<void> {
    await this.page.waitForFunction(
      ({ from, seconds }) => {
        const s = window.harness.snapshot();
        return s.state === 'playing' && s.currentTime >= from + seconds;
      },
      { from, seconds },
      { timeout },
    );
  }

  async control(cameraId: string, action: 'switch' | 'close'): Promise<void> {
    const res = await this.request.post(`/control?cameraId=${encodeURIComponent(cameraId)}&action=${action}`);
    if (!res.ok()) throw new Error(`control ${action}: ${res.status()} ${await res.text()}`);
  }

  /** The play commands (and tokens) the harness received for a camera. */
  async received(cameraId: string): Promise<{ commands: PlayCommand[]; tokens: Array<string | null> }> {
    const res = await this.request.get(`/control/log?cameraId=${encodeURIComponent(cameraId)}`);
    return (await res.json()) as { commands: PlayCommand[]; tokens: Array<string | null> };
  }
}
