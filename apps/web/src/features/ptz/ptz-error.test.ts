import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { ptzEn, ptzZhCN } from './locales.ts';
import { ptzErrorText } from './ptz-error.ts';

describe('PTZ failures in the operator’s language', () => {
  it('names offline, not-PTZ, unsupported and unknown-preset failures by shore’s reason, in both languages', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: { en: { translation: { ptz: ptzEn } }, 'zh-CN': { translation: { ptz: ptzZhCN } } } });
    const t = i18n.t.bind(i18n);
    const err = (code: number, message: string) => new ApiError('envelope', code, message, code);
    expect(ptzErrorText(t, err(503, 'offline: ship S1001 is offline'))).toBe(ptzEn.error.offline);
    expect(ptzErrorText(t, err(409, 'notPtz: camera Engine Room is not a PTZ camera'))).toBe(ptzEn.error.notPtz);
    expect(ptzErrorText(t, err(409, 'unsupported: the agent of ship S1001 does not handle ptz'))).toBe(ptzEn.error.unsupported);
    expect(ptzErrorText(t, err(404, 'notFound: no preset p3'))).toBe(ptzEn.presets.notFound);
    expect(ptzErrorText(t, err(503, 'failed: the camera refused'))).toBe('PTZ control failed: the camera refused');
    await i18n.changeLanguage('zh-CN');
    expect(ptzErrorText(t, err(503, 'offline: ship S1001 is offline'))).toBe('船舶离线，无法控制云台');
  });
});
