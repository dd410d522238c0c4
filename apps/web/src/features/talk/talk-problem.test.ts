import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../i18n/locales/en.ts';
import { zhCN } from '../../i18n/locales/zh-CN.ts';
import { microphoneProblem, problemText, serverProblem } from './talk-problem.ts';
import { voiceFormat } from './voice-capture.ts';

const named = (name: string) => Object.assign(new Error(name), { name });

describe('talk problems', () => {
  const t = i18next.createInstance();
  beforeAll(async () => {
    await t.init({ lng: 'zh-CN', resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } } });
  });

  it('tells a refused microphone from a missing one and from an unsupported browser', () => {
    expect(microphoneProblem(named('NotAllowedError'))).toEqual({ kind: 'micDenied' });
    expect(microphoneProblem(new DOMException('denied', 'NotAllowedError'))).toEqual({ kind: 'micDenied' });
    expect(microphoneProblem(named('NotFoundError'))).toEqual({ kind: 'micMissing' });
    expect(microphoneProblem(new DOMException('no mediaDevices', 'NotSupportedError'))).toEqual({ kind: 'unsupported' });
    expect(microphoneProblem(named('AbortError'))).toEqual({ kind: 'failed', message: 'AbortError' });
  });

  it("maps shore's refusals, occupied with who holds it", () => {
    expect(serverProblem('occupied', 'held', 'Demo Operator')).toEqual({ kind: 'occupied', holder: 'Demo Operator' });
    expect(serverProblem('shipOffline', 'offline')).toEqual({ kind: 'shipOffline' });
    expect(serverProblem('talkOff', 'off')).toEqual({ kind: 'talkOff' });
    expect(serverProblem('unsupported', 'the agent does not handle talkback')).toEqual({ kind: 'failed', message: 'the agent does not handle talkback' });
  });

  it('says each problem in both languages', async () => {
    expect(problemText(t.t, { kind: 'occupied', holder: 'Demo Operator' })).toBe('对讲被占用（Demo Operator 正在对讲）');
    expect(problemText(t.t, { kind: 'micDenied' })).toContain('麦克风被拒绝');
    expect(problemText(t.t, { kind: 'micMissing' })).toBe('未找到麦克风');
    expect(problemText(t.t, { kind: 'ended', reason: 'maxDuration', message: '' })).toBe('已达到对讲最长时间，对讲结束');
    await t.changeLanguage('en');
    expect(problemText(t.t, { kind: 'occupied', holder: 'Demo Operator' })).toBe('The talkback is occupied (Demo Operator is talking)');
    expect(problemText(t.t, { kind: 'occupied', holder: undefined })).toBe('The talkback is occupied');
    expect(problemText(t.t, { kind: 'unsupported' })).toContain('cannot talk back');
    expect(problemText(t.t, { kind: 'shipOffline' })).toBe('The ship is offline: cannot talk');
    expect(problemText(t.t, { kind: 'failed', message: 'boom' })).toBe('Talk failed: boom');
    await t.changeLanguage('zh-CN');
  });

  it('picks WebCodecs when it can, MediaRecorder otherwise, nothing without either', () => {
    const fn = () => undefined;
    expect(voiceFormat({ AudioEncoder: fn, MediaStreamTrackProcessor: fn, MediaRecorder: fn })).toBe('opus');
    expect(voiceFormat({ AudioEncoder: fn, MediaRecorder: fn })).toBe('webm');
    expect(voiceFormat({})).toBeUndefined();
  });
});
