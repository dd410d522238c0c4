import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import { shipFailureEn, shipFailureZhCN } from '../../shared/ship-failure/locales.ts';
import { ptzEn, ptzZhCN } from './locales.ts';
import { ptzErrorText } from './ptz-error.ts';

describe('PTZ failures in the operator’s language', () => {
  const texts = async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: { en: { translation: { ptz: ptzEn, shipFailure: shipFailureEn } }, 'zh-CN': { translation: { ptz: ptzZhCN, shipFailure: shipFailureZhCN } } },
    });
    return i18n;
  };
  const err = (code: number, message: string, reason?: ApiError['reason']) => new ApiError('envelope', code, message, code, reason);

  it('names offline, not-PTZ, unsupported and unknown-preset failures by the answer’s reason, in both languages', async () => {
    const i18n = await texts();
    const t = i18n.t.bind(i18n);
    expect(ptzErrorText(t, err(503, 'the ship is offline: ship S1001 is not connected', 'offline'))).toBe(ptzEn.error.offline);
    expect(ptzErrorText(t, err(409, 'camera Engine Room is not a PTZ camera', 'notPtz'))).toBe(ptzEn.error.notPtz);
    expect(ptzErrorText(t, err(409, 'the agent of ship S1001 does not handle ptz', 'unsupported'))).toBe(ptzEn.error.unsupported);
    expect(ptzErrorText(t, err(404, 'no preset p3', 'notFound'))).toBe(ptzEn.presets.notFound);
    expect(ptzErrorText(t, err(503, 'the camera refused', 'refused'))).toBe('PTZ control failed: the camera refused');
    expect(ptzErrorText(t, err(503, 'the ship did not answer within 15 s', 'timeout'))).toBe('PTZ control failed: the ship did not answer');
    await i18n.changeLanguage('zh-CN');
    expect(ptzErrorText(t, err(503, 'the ship is offline: ship S1001 is not connected', 'offline'))).toBe('船舶离线，无法控制云台');
    expect(ptzErrorText(t, err(503, 'the ship did not answer within 15 s', 'timeout'))).toBe('云台控制失败：船舶未响应');
  });

  it('reads the reason, not the message: a message that starts like a reason is only a message', async () => {
    const i18n = await texts();
    const t = i18n.t.bind(i18n);
    // What the server once put in front of its messages means nothing now.
    expect(ptzErrorText(t, err(503, 'offline: ship S1001 is offline'))).toBe('PTZ control failed: offline: ship S1001 is offline');
    expect(ptzErrorText(t, err(409, 'notPtz: camera Engine Room is not a PTZ camera'))).toBe('PTZ control failed: notPtz: camera Engine Room is not a PTZ camera');
    // And the reason decides whatever the message says.
    expect(ptzErrorText(t, err(503, 'anything at all', 'offline'))).toBe(ptzEn.error.offline);
    // A gateway's 503 without an envelope is not the ship being offline.
    expect(ptzErrorText(t, new ApiError('http', 503, 'Service Unavailable', 503))).toBe('PTZ control failed: Service Unavailable');
  });
});
