/** Types of demo-cluster.mjs (the demo's several shore instances behind haproxy). */
export interface PlannedInstance {
  name: string;
  port: number;
  dataDir: string;
}
export const DEMO_DATABASE_URL: string;
export const HAPROXY: string;
export function instanceCount(argv: readonly string[], env: Record<string, string | undefined>): number;
export function instancePlan(count: number, proxyPort: number, dataDir: string): PlannedInstance[];
export function haproxyConfig(proxyPort: number, instances: readonly Pick<PlannedInstance, 'name' | 'port'>[], opts?: { maxconn?: number }): string;
