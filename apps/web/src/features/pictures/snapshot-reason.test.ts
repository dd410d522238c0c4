import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/locales/en.ts';
import { zhCN } from '../../i18n/locales/zh-CN.ts';
import { ApiError } from '../../lib/api-client.ts';
import { shipPictureFetchFailure, snapshotFailure, snapshotRequestFailure } from './snapshot-reason.ts';

const texts = async () => {
  const i18n = i18next.createInstance();
  // As the app has it (createI18n): React escapes what it renders.
  await i18n.init({ lng: 'en', resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } }, interpolation: { escapeValue: false } });
  return i18n;
};

describe('snapshotFailure', () => {
  it('says a known reason in the page’s language and passes an unknown one on as the ship said it', async () => {
    const i18n = await texts();
    expect(snapshotFailure(i18n.t, 'cameraOffline', 'no picture came out of ffmpeg')).toBe('The picture could not be taken: the camera sends no picture');
    expect(snapshotFailure(i18n.t, 'failed', 'disk full')).toBe('The picture could not be taken: disk full');
  });
});

describe('a snapshot or a fetch the ship could not be asked for', () => {
  const failure = (code: number, message: string, reason?: ApiError['reason']) => new ApiError('envelope', code, message, code, reason);

  it('is the link being down when the answer’s reason is offline, in both languages', async () => {
    const i18n = await texts();
    const offline = failure(503, 'the ship is offline: ship S1001 is not connected', 'offline');
    expect(snapshotRequestFailure(i18n.t, offline)).toBe('The ship link is down: no picture can be taken now');
    expect(shipPictureFetchFailure(i18n.t, offline)).toBe('The ship link is down: no picture can be taken now');
    await i18n.changeLanguage('zh-CN');
    expect(snapshotRequestFailure(i18n.t, offline)).toBe('船舶链路已断开，无法抓拍');
  });

  it('words any other reason once for every feature, and is not the link being down for a 503 without one', async () => {
    const i18n = await texts();
    expect(shipPictureFetchFailure(i18n.t, failure(503, 'the ship did not answer within 30 s', 'timeout'))).toBe('Pictures could not be loaded: the ship did not answer');
    expect(snapshotRequestFailure(i18n.t, failure(409, 'the agent of ship S1001 does not handle pictures', 'unsupported'))).toBe("The picture could not be taken: the ship's agent does not support this");
    // A 503 of a gateway in front of shore says nothing about the ship.
    expect(snapshotRequestFailure(i18n.t, new ApiError('http', 503, 'Service Unavailable', 503))).toBe('The picture could not be taken: Service Unavailable');
    await i18n.changeLanguage('zh-CN');
    expect(shipPictureFetchFailure(i18n.t, failure(503, 'the ship could not answer: busy', 'busy'))).toBe('图片加载失败：船舶正忙');
  });
});
