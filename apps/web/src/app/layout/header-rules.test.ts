import { describe, expect, it } from 'vitest';
import { shorePlaybackLabel } from '../../shared/shore-playback-label.ts';
import { hasSidebarToggle, menuKeyOf } from './header-rules.ts';

describe('header rules (spec §2)', () => {
  it('calls shore playback near-end for njzsz only', () => {
    expect(shorePlaybackLabel('njzsz')).toBe('shell.menu.nearEndPlayback');
    expect(shorePlaybackLabel('blueocean')).toBe('shell.menu.shorePlayback');
    expect(shorePlaybackLabel(undefined)).toBe('shell.menu.shorePlayback');
  });

  it('shows the collapse-sidebar icon only on the source-tree screens', () => {
    for (const path of ['/live/index', '/live/index/', '/live/photo', '/live/recordlivevideo', '/recordlivephoto']) expect(hasSidebarToggle(path), path).toBe(true);
    for (const path of ['/live', '/record/video', '/carouselConfig', '/login']) expect(hasSidebarToggle(path), path).toBe(false);
  });

  it('highlights Ship video playback on its screen', () => {
    expect(menuKeyOf('/live/recordlivevideo')).toBe('shipPlayback');
  });

  it('highlights Main preview on the live screens', () => {
    expect(menuKeyOf('/live/index')).toBe('live');
  });

  it('highlights Carousel on its screen', () => {
    expect(menuKeyOf('/carouselConfig')).toBe('carousel');
  });

  it('highlights shore playback → video on its screen', () => {
    expect(menuKeyOf('/record/video')).toBe('shorePlayback:video');
  });

  it('highlights shore playback → events on the events screen', () => {
    expect(menuKeyOf('/events')).toBe('shorePlayback:events');
  });
});
