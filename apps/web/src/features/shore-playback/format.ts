import dayjs from 'dayjs';

/** A recorded time as the operator reads it (browser time zone). */
export const formatTime = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
export const formatClock = (ms: number) => dayjs(ms).format('HH:mm:ss');

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${h > 0 ? `${h}:` : ''}${h > 0 ? pad(m) : m}:${pad(s % 60)}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
