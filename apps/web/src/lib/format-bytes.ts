const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** 1234567 → "1.23 MB" (decimal units, as link volumes are billed); the number in the locale's style. */
export function formatBytes(bytes: number, locale: string): string {
  let value = Math.max(bytes, 0);
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 ? 0 : value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value)} ${BYTE_UNITS[unit]}`;
}
