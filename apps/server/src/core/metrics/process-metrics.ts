import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';

/**
 * The process's own figures: prom-client's defaults (CPU, resident memory, heap by space, event-loop
 * lag and its percentiles, GC durations by kind, active handles and requests, open file
 * descriptors, start time, Node version), and `process_memory_bytes{kind}` and
 * `process_cpu_seconds{mode}`, the names this server published before it used prom-client
 * (dashboards and tests read them).
 */
export function registerProcessMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'process_memory_bytes',
    help: 'Memory of the process in bytes.',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      const m = process.memoryUsage();
      this.set({ kind: 'rss' }, m.rss);
      this.set({ kind: 'heap_used' }, m.heapUsed);
      this.set({ kind: 'heap_total' }, m.heapTotal);
      this.set({ kind: 'external' }, m.external);
      this.set({ kind: 'array_buffers' }, m.arrayBuffers);
    },
  });
  new Gauge({
    name: 'process_cpu_seconds',
    help: 'User and system CPU time spent in seconds (also process_cpu_seconds_total).',
    labelNames: ['mode'],
    registers: [registry],
    collect() {
      const u = process.cpuUsage();
      this.set({ mode: 'user' }, u.user / 1e6);
      this.set({ mode: 'system' }, u.system / 1e6);
    },
  });
}
