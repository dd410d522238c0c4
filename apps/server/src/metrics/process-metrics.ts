import { Gauge, type MetricsRegistry } from './registry.ts';

/** The process's own figures: CPU, memory, event-loop, uptime. */
export function registerProcessMetrics(registry: MetricsRegistry): void {
  const startSeconds = Math.round(Date.now() / 1000 - process.uptime());
  const cpu = registry.register(new Gauge('process_cpu_seconds', 'User and system CPU time spent in seconds.', ['mode']));
  cpu.collect(() => {
    const u = process.cpuUsage();
    cpu.set({ mode: 'user' }, u.user / 1e6);
    cpu.set({ mode: 'system' }, u.system / 1e6);
  });
  const memory = registry.register(new Gauge('process_memory_bytes', 'Memory of the process in bytes.', ['kind']));
  memory.collect(() => {
    const m = process.memoryUsage();
    memory.set({ kind: 'rss' }, m.rss);
    memory.set({ kind: 'heap_used' }, m.heapUsed);
    memory.set({ kind: 'heap_total' }, m.heapTotal);
    memory.set({ kind: 'external' }, m.external);
    memory.set({ kind: 'array_buffers' }, m.arrayBuffers);
  });
  const start = registry.register(new Gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch in seconds.', []));
  start.set({}, startSeconds);
}
