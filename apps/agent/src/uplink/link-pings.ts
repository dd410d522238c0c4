import WebSocket from 'ws';
import type { LinkMeter } from './link-meter.ts';
import type { UplinkScheduler } from './scheduler.ts';

/**
 * Pings shore every `everyMs` on the agent link's WebSocket and gives each answer's round trip to
 * the meter. Shore's WebSocket answers by itself, in order, so answers are matched to pings by
 * order; a ping and its pong are 8 bytes (6 up, 2 down), counted in what the uplink sent. Returns
 * the stop.
 */
export function pingShore(ws: WebSocket, meter: LinkMeter, uplink: UplinkScheduler, everyMs: number): () => void {
  const out: number[] = [];
  const onPong = () => {
    const sentAt = out.shift();
    const now = performance.now();
    if (sentAt !== undefined) meter.roundTrip(now - sentAt, now);
  };
  ws.on('pong', onPong);
  const ping = () => {
    if (ws.readyState !== WebSocket.OPEN) return;
    out.push(performance.now());
    ws.ping();
    uplink.sentBeside(0);
  };
  const timer = setInterval(ping, everyMs);
  timer.unref();
  ping();
  return () => {
    clearInterval(timer);
    ws.off('pong', onPong);
  };
}
