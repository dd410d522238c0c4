import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShipConfig } from '@ship-cctv/protocol';
import { useShipConfig } from '../../../shared/player-cell/index.ts';
import {
  defaultPlaybackOptions,
  defaultTemplatePair,
  findTimeZone,
  validatePlaybackOptions,
  type PlaybackOptions,
  type PlaybackOptionsDraft,
  type PlaybackOptionsErrors,
  type PlaybackOptionsField,
  type TemplatePair,
  type TextLanguage,
} from '../options.ts';

export interface PlaybackOptionsFormInput {
  /** The ship whose config gives the definition templates. */
  orgId: string;
  shipId: string;
  /** The options last used (the form starts from them), else the spec defaults. */
  initial: PlaybackOptions | undefined;
  /** The clock. */
  now: () => number;
  /** Called with the checked options when a submit passes validation. */
  onSubmit(options: PlaybackOptions): void;
}

/**
 * The state and validation of the playback options form (spec §5, features/playback/options.ts),
 * free of any UI library so the desktop dialog and the mobile one share it. An error shows at its
 * field once the field was changed or a submit was tried ("no default template" at once).
 */
export function usePlaybackOptionsForm({ orgId, shipId, initial, now, onSubmit }: PlaybackOptionsFormInput) {
  const { i18n } = useTranslation();
  const language: TextLanguage = i18n.language === 'en' ? 'en' : 'zh-CN';
  const config = useShipConfig(orgId, shipId);
  // Spec §8: a config that cannot be read is not an error to show; the server applies the default.
  const shipConfig: ShipConfig | undefined = config.data;
  const [draft, setDraft] = useState<PlaybackOptionsDraft>(() => (initial ? { ...initial } : defaultPlaybackOptions(now())));
  const [touched, setTouched] = useState<ReadonlySet<PlaybackOptionsField>>(new Set());
  const [submitted, setSubmitted] = useState(false);

  // Until the operator picks one, the template is the ship's default (known once the config is).
  const template: TemplatePair | undefined = draft.template ?? (shipConfig ? defaultTemplatePair(shipConfig) : undefined);
  const zone = findTimeZone(draft.timeZoneId);
  const check = validatePlaybackOptions({ ...draft, template }, { now: now(), config: shipConfig });
  const shown: PlaybackOptionsErrors = {};
  for (const [field, error] of Object.entries(check.errors) as [PlaybackOptionsField, PlaybackOptionsErrors[PlaybackOptionsField]][]) {
    // "No default template" blocks the playback whatever is typed: say so at once.
    if (submitted || touched.has(field) || error === 'noDefaultTemplate') shown[field] = error;
  }

  const change = (field: PlaybackOptionsField, next: Partial<PlaybackOptionsDraft>) => {
    setDraft((d) => ({ ...d, ...next }));
    setTouched((s) => new Set(s).add(field));
  };

  const submit = () => {
    setSubmitted(true);
    const result = validatePlaybackOptions({ ...draft, template }, { now: now(), config: shipConfig });
    if (result.ok) onSubmit(result.options);
  };

  return { language, config, shipConfig, draft, template, zone, check, shown, change, submit };
}
