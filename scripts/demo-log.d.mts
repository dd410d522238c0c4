/** Types of demo-log.mjs (the demo's readable view of a shore server's JSON log). */
export type LogMode = 'readable' | 'all' | 'json';
export function formatLogLine(line: string, name: string, mode?: LogMode | string): string | undefined;
export function showLog(stream: NodeJS.ReadableStream, name: string, mode?: LogMode | string): void;
