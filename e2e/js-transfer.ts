import type { Page, Request } from '@playwright/test';

/** One JavaScript file as the browser received it. */
export interface JsFile {
  url: string;
  /** Bytes of the body on the wire (encoded: brotli or gzip as served). */
  encodedBytes: number;
  encoding: string;
}

/**
 * Records every JavaScript response a page receives from now on, with the bytes that crossed the
 * wire (the encoded body, as Chromium reports it), so a test can sum what a browser downloads.
 */
export function recordJavaScript(page: Page): { files: JsFile[]; settled(): Promise<void>; totalBytes(): number } {
  const files: JsFile[] = [];
  const pending = new Set<Promise<void>>();
  const record = (request: Request) => {
    if (!new URL(request.url()).pathname.endsWith('.js')) return;
    const done = (async () => {
      const [sizes, response] = await Promise.all([request.sizes(), request.response()]);
      files.push({ url: request.url(), encodedBytes: sizes.responseBodySize, encoding: (await response?.headerValue('content-encoding')) ?? 'identity' });
    })().catch(() => undefined);
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  page.on('requestfinished', record);
  return {
    files,
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    totalBytes: () => files.reduce((sum, f) => sum + f.encodedBytes, 0),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The figure a run prints: total, file count, encodings, the largest files. */
export function describeJavaScript(label: string, files: readonly JsFile[]): string {
  const total = files.reduce((sum, f) => sum + f.encodedBytes, 0);
  const encodings = [...new Set(files.map((f) => f.encoding))].join(', ');
  // JS_BUDGET_ALL=1 lists every file, not only the largest.
  const largest = [...files].sort((a, b) => b.encodedBytes - a.encodedBytes).slice(0, process.env.JS_BUDGET_ALL ? undefined : 8);
  return [
    `${label}: ${kb(total)} of JavaScript over the wire (${encodings}) in ${files.length} files`,
    ...largest.map((f) => `  ${kb(f.encodedBytes).padStart(9)}  ${new URL(f.url).pathname.replace(/.*\//, '')}${f.encoding === 'br' ? '' : ` (${f.encoding})`}`),
  ].join('\n');
}
