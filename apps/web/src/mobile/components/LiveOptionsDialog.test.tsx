import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { ShipConfig } from '@ship-cctv/protocol';
import { createI18n, type Language } from '../../i18n/index.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { DEFAULT_RUNTIME_CONFIG } from '../../lib/runtime-config.ts';
import { shipConfigQuery } from '../../shared/player-cell/index.ts';
import { source } from '../../shared/test-sources.ts';
import { MobileProviders } from '../providers.tsx';
import { LiveOptionsDialog } from './LiveOptionsDialog.tsx';

const model = (id: number, displayName: string, displayNameEn?: string) => ({ id, displayName, ...(displayNameEn ? { displayNameEn } : {}), width: 640, height: 360, frameRate: 10, bitrateKbps: 400, codec: 'h264' });
const CONFIG: ShipConfig = {
  groupAliasResDTOS: [{ id: 2, displayName: '标准', defaultModelId: 6, models: [model(5, '流畅'), model(6, '标清', 'Standard')] }],
  defaultGroupId: 2,
  talk: false,
  audio: false,
};

function renderDialog(language: Language, config: ShipConfig = CONFIG) {
  const s = source(1);
  const queryClient = createQueryClient();
  queryClient.setQueryData(shipConfigQuery(s.orgId, s.shipId).queryKey, config);
  render(
    <MobileProviders config={DEFAULT_RUNTIME_CONFIG} i18n={createI18n(language)} queryClient={queryClient}>
      <LiveOptionsDialog source={s} onPlay={() => undefined} onClose={() => undefined} />
    </MobileProviders>,
  );
}

describe('mobile live options: the default definition is marked in the language’s own punctuation', () => {
  it('Chinese: full-width brackets', () => {
    renderDialog('zh-CN');
    expect(screen.getByText('标清（默认）')).toBeTruthy();
    expect(screen.getByText('流畅')).toBeTruthy();
  });

  it('English, with the English name where the ship’s config has one', () => {
    renderDialog('en');
    expect(screen.getByText('Standard (default)')).toBeTruthy();
    expect(screen.getByText('流畅')).toBeTruthy();
  });
});

describe('mobile live options: each resolution’s group in the page’s language', () => {
  const named: ShipConfig = {
    ...CONFIG,
    groupAliasResDTOS: CONFIG.groupAliasResDTOS.map((g) => ({ ...g, displayName: '标准', displayNameEn: 'Standard group' })),
  };

  it('English: the group’s English name under every resolution, no Chinese', () => {
    renderDialog('en', named);
    expect(screen.getAllByText('Standard group')).toHaveLength(2);
    expect(screen.queryByText('标准')).toBeNull();
  });

  it('Chinese: the group’s Chinese name', () => {
    renderDialog('zh-CN', named);
    expect(screen.getAllByText('标准')).toHaveLength(2);
    expect(screen.queryByText('Standard group')).toBeNull();
  });
});
