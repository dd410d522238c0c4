import fp from 'fastify-plugin';
import { Gauge } from 'prom-client';

/**
 * The product's gauges in /metrics, read from the services at each scrape (nothing to keep in
 * step): ships connected to this instance by link type, the live uplinks it holds open and their
 * viewers, ship-end playbacks, STOMP connections and subscriptions; and each connected ship's last
 * uplink-queue report. The counters (definition switches, recorder segments, media-socket errors,
 * sign-in failures) are counted where they happen: metrics/product-metrics.ts.
 */
export default fp(
  async (app) => {
    const registers = [app.metrics.registry];
    new Gauge({
      name: 'shipcctv_agents_connected',
      help: "Ship agents connected to this instance, by the link type each last reported.",
      labelNames: ['link'],
      registers,
      async collect() {
        this.reset();
        const ships = app.agents.connectedShips().map((id) => ({ id, name: id }));
        const statuses = ships.length > 0 ? await app.status.shipStatuses(ships) : [];
        const byLink = new Map<string, number>();
        for (const s of statuses) byLink.set(String(s.status), (byLink.get(String(s.status)) ?? 0) + 1);
        for (const [link, n] of byLink) this.set({ link }, n);
      },
    });
    new Gauge({
      name: 'shipcctv_live_uplink_streams',
      help: 'Live streams this instance has asked ships to send (one per camera and definition, lingering ones included).',
      registers,
      collect() {
        this.set(app.live.activeStreams().length);
      },
    });
    new Gauge({
      name: 'shipcctv_live_viewers',
      help: "Viewers of this instance's live uplink streams.",
      registers,
      collect() {
        this.set(app.live.activeStreams().reduce((sum, s) => sum + s.viewers, 0));
      },
    });
    new Gauge({
      name: 'shipcctv_ship_playbacks',
      help: 'Ship-end playbacks (video recorded on the ship, sent over its link) running on this instance.',
      registers,
      collect() {
        this.set(app.playback.active().length);
      },
    });
    new Gauge({
      name: 'shipcctv_stomp_connections',
      help: 'Open STOMP connections (web clients) on this instance.',
      registers,
      collect() {
        this.set(app.stomp.connectionCount());
      },
    });
    new Gauge({
      name: 'shipcctv_stomp_subscriptions',
      help: 'STOMP subscriptions on this instance, over all destinations.',
      registers,
      collect() {
        this.set(app.stomp.destinations().reduce((sum, d) => sum + app.stomp.subscriberCount(d), 0));
      },
    });

    const queue = app.metrics.product.uplinkQueueMs;
    app.agents.events.on('queue', (shipId, report) => queue.set({ ship: shipId }, report.queuedMs));
    // A ship that left this instance has no queue here: its series goes rather than freezing.
    app.agents.events.on('offline', (shipId) => queue.remove({ ship: shipId }));
  },
  { name: 'product-metrics', dependencies: ['agent-link', 'status', 'app-stomp', 'live', 'playback'] },
);
