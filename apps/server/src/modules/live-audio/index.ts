import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { AudioBytesTap } from './audio-bytes-tap.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live sound: what it costs on each ship's uplink. */
    liveAudio: { bytes: Counter<'ship'> };
  }
}

/**
 * Live sound (spec §3 config `audio`): the ship's flag travels in `live.start` (LiveService), the
 * agent encodes sound only when it is on, and here every sound byte that arrives is counted per
 * ship — `shipcctv_live_audio_bytes_total{ship}` next to `shipcctv_link_bytes_total`. Needs live
 * (a tap on its media) and metrics.
 */
export default fp(
  async (app) => {
    const bytes = new Counter({
      name: 'shipcctv_live_audio_bytes_total',
      help: 'Bytes of live sound frames arrived from a ship.',
      labelNames: ['ship'],
      registers: [app.metrics.registry],
    });
    const untap = app.live.tapMedia(new AudioBytesTap((ship, n) => bytes.inc({ ship }, n)));
    app.decorate('liveAudio', { bytes });
    app.addHook('onClose', async () => {
      untap();
    });
  },
  { name: 'live-audio', dependencies: ['live', 'core-metrics'] },
);
