import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../../../scripts/demo-log.mjs';

const line = (entry: Record<string, unknown>) => JSON.stringify({ time: Date.UTC(2026, 10, 26, 9, 30, 5), pid: 1, hostname: 'h', ...entry });

describe("the demo's view of a shore server's log (npm start keeps the JSON)", () => {
  it('shows a warning as one readable line with its details', () => {
    expect(formatLogLine(line({ level: 40, msg: 'agent link message dropped', shipId: 'S1001', kind: 'live' }), 'shore-1')).toBe(
      '09:30:05 WARN  shore-1  agent link message dropped (shipId=S1001, kind=live)',
    );
    expect(formatLogLine(line({ level: 50, msg: 'agent message failed', err: { message: 'boom', stack: '…' } }), 'shore')).toBe('09:30:05 ERROR shore  agent message failed (err=boom)');
  });

  it('keeps the info lines a person cares about and drops the rest (requests, debug)', () => {
    expect(formatLogLine(line({ level: 30, msg: 'agent connected', shipId: 'S1002' }), 'shore')).toBe('09:30:05 INFO  shore  agent connected (shipId=S1002)');
    expect(formatLogLine(line({ level: 30, msg: 'request completed', reqId: 'r1', res: { statusCode: 200 }, responseTime: 3 }), 'shore')).toBeUndefined();
    expect(formatLogLine(line({ level: 20, msg: 'ptz: camera steered' }), 'shore')).toBeUndefined();
  });

  it('shows every line with DEMO_LOG=all, the JSON untouched with DEMO_LOG=json, and other text as it is', () => {
    const request = line({ level: 30, msg: 'request completed', reqId: 'r1' });
    expect(formatLogLine(request, 'shore', 'all')).toBe('09:30:05 INFO  shore  request completed');
    expect(formatLogLine(request, 'shore', 'json')).toBe(request);
    expect(formatLogLine('[fleet] S1001 link now VSAT', 'shore')).toBe('[fleet] S1001 link now VSAT');
  });
});
