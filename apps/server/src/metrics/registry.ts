/**
 * A small Prometheus text-format registry: counters, gauges and histograms with labels. The
 * scrape renders everything; updates are map look-ups, cheap enough for the media hot path.
 */
type Labels = Record<string, string>;

function escapeLabel(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(',')}}` : '';
}

abstract class Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}
  protected key(labels: Labels): string {
    return this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
  }
  abstract render(): string;
}

export class Counter extends Metric {
  private readonly values = new Map<string, number>();
  inc(labels: Labels = {}, by = 1): void {
    const k = this.key(labels);
    this.values.set(k, (this.values.get(k) ?? 0) + by);
  }
  get(labels: Labels = {}): number {
    return this.values.get(this.key(labels)) ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [k, v] of this.values) lines.push(`${this.name}${labelText(this.labelNames, k.split('\u0000'))} ${v}`);
    return lines.join('\n');
  }
}

export class Gauge extends Metric {
  private readonly values = new Map<string, number>();
  private collector: (() => void) | undefined;
  set(labels: Labels, value: number): void {
    this.values.set(this.key(labels), value);
  }
  /** Called at each scrape before rendering, for values read on demand. */
  collect(fn: () => void): this {
    this.collector = fn;
    return this;
  }
  render(): string {
    this.collector?.();
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const [k, v] of this.values) lines.push(`${this.name}${labelText(this.labelNames, k.split('\u0000'))} ${v}`);
    return lines.join('\n');
  }
}

export class Histogram extends Metric {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number }>();
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }
  observe(labels: Labels, value: number): void {
    const k = this.key(labels);
    let s = this.series.get(k);
    if (!s) {
      s = { counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(k, s);
    }
    this.buckets.forEach((b, i) => {
      if (value <= b) s.counts[i] = (s.counts[i] ?? 0) + 1;
    });
    s.sum += value;
    s.count += 1;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [k, s] of this.series) {
      const values = k.split('\u0000');
      this.buckets.forEach((b, i) => {
        lines.push(`${this.name}_bucket${labelText(this.labelNames, values, `le="${b}"`)} ${s.counts[i] ?? 0}`);
      });
      lines.push(`${this.name}_bucket${labelText(this.labelNames, values, 'le="+Inf"')} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(this.labelNames, values)} ${s.sum}`);
      lines.push(`${this.name}_count${labelText(this.labelNames, values)} ${s.count}`);
    }
    return lines.join('\n');
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];
  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }
  render(): string {
    return `${this.metrics.map((m) => m.render()).join('\n')}\n`;
  }
}
