import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/locales/en.ts';
import { snapshotFailure } from './snapshot-reason.ts';

describe('snapshotFailure', () => {
  it('says a known reason in the page’s language and passes an unknown one on as the ship said it', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { translation: en } } });
    expect(snapshotFailure(i18n.t, 'cameraOffline', 'no picture came out of ffmpeg')).toBe('The picture could not be taken: the camera sends no picture');
    expect(snapshotFailure(i18n.t, 'failed', 'disk full')).toBe('The picture could not be taken: disk full');
  });
});
