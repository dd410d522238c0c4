/**
 * What `npm run demo` shows of a shore server's log: the server writes pino's JSON lines (what
 * `npm start` keeps for machines); a person reads one line per event that matters — warnings and
 * errors, agents coming and going, the server listening — as "12:00:01 WARN  shore-1  message (k=v)".
 * DEMO_LOG=all shows every line that way, DEMO_LOG=json passes the JSON through untouched.
 */
import { createInterface } from 'node:readline';

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Info lines worth a person's attention in the demo. */
const NOTABLE = /^(agent connected|agent disconnected|Server listening|shore recorder: recovered|ship ownership)/;
/** Fields every line has, or that only repeat the message. */
const PLUMBING = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'v']);

const clock = (ms) => new Date(ms).toISOString().slice(11, 19);

function detail(entry) {
  const parts = [];
  for (const [key, value] of Object.entries(entry)) {
    if (PLUMBING.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object') parts.push(`err=${value.message ?? JSON.stringify(value)}`);
    else parts.push(`${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/**
 * One line of the server's output as the demo shows it, or undefined to leave it out. Lines that
 * are not pino JSON are shown as they are.
 */
export function formatLogLine(line, name, mode = 'readable') {
  if (mode === 'json') return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (!entry || typeof entry !== 'object' || typeof entry.level !== 'number') return line;
  const msg = String(entry.msg ?? '');
  if (mode !== 'all' && entry.level < 40 && !NOTABLE.test(msg)) return undefined;
  const level = (LEVELS[entry.level] ?? String(entry.level)).padEnd(5);
  return `${clock(typeof entry.time === 'number' ? entry.time : Date.now())} ${level} ${name}  ${msg}${detail(entry)}`;
}

/** Pipes a child's output through formatLogLine to this process's stdout. */
export function showLog(stream, name, mode = process.env.DEMO_LOG ?? 'readable') {
  const lines = createInterface({ input: stream });
  lines.on('line', (line) => {
    const shown = formatLogLine(line, name, mode);
    if (shown !== undefined) process.stdout.write(`${shown}\n`);
  });
}
