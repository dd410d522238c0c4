import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers.tsx';
import { createQueryClient } from '../../../lib/query-client.ts';
import { createI18n, type Language } from '../../../i18n/index.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config.ts';
import { addCarouselTexts } from '../texts.ts';
import { CarouselGrid } from './CarouselGrid.tsx';

describe('carousel layout and unused cells', { timeout: 30_000 }, () => {
  it('names a layout with the plural its count takes, in both languages', () => {
    const en = createI18n('en');
    addCarouselTexts(en);
    expect(en.t('carousel.layoutOption', { count: 1 })).toBe('1 cell');
    expect(en.t('carousel.layoutOption', { count: 4 })).toBe('4 cells');
    const zh = createI18n('zh-CN');
    addCarouselTexts(zh);
    expect(zh.t('carousel.layoutOption', { count: 1 })).toBe('1 画面');
    expect(zh.t('carousel.layoutOption', { count: 9 })).toBe('9 画面');
  });

  it.each<[Language, string]>([
    ['en', 'No more channels on this page'],
    ['zh-CN', '本页没有更多通道'],
  ])('says so in each cell a page leaves unused (%s)', (language, text) => {
    render(
      <AppProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={createQueryClient()}>
        <CarouselGrid carouselId="c1" layout={4} templateId={undefined} cells={[]} next={undefined} />
      </AppProviders>,
    );
    const empty = screen.getByTestId('carousel-grid').querySelectorAll('[data-empty-cell]');
    expect(empty).toHaveLength(4);
    expect(screen.getAllByText(text)).toHaveLength(4);
  });
});
