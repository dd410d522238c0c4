import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** At most this much of a page snapshot is printed: enough for a dialog, a screen's headings and its alerts. */
const MAX_CHARS = 6000;

/**
 * Prints, under a failed test, what the page showed when it failed: Playwright's error context (the
 * page's accessibility snapshot) is otherwise only a file under test-results/, which a CI log never
 * shows. A run on another machine then says whether a dialog had another title, the page was blank
 * or an error was on screen.
 */
export default class FailureContextReporter implements Reporter {
  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const context = result.attachments.find((a) => a.name === 'error-context' && a.path);
    if (!context?.path) return;
    let text: string;
    try {
      // The error itself is already above; the page's accessibility snapshots (YAML blocks, under
      // the error or as the page snapshot) are what the page showed.
      const whole = readFileSync(context.path, 'utf8');
      const snapshots = [...whole.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').trimEnd());
      if (snapshots.length === 0) return;
      text = snapshots.join('\n---\n');
    } catch (err) {
      text = `(the error context could not be read: ${(err as Error).message})`;
    }
    const cut = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS)}\n… (${text.length - MAX_CHARS} more characters in ${context.path})` : text;
    process.stdout.write(`\n[page at failure] ${test.titlePath().slice(1).join(' › ')}\n${cut}\n`);
  }
}
