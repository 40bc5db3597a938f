// Ends the run with one plain line, "e2e: N passed, N failed[, N skipped]", which CI reads.
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(test: TestCase, result: TestResult) {
    // Count each test once, by its final outcome (after any retries).
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    if (result.status === 'skipped') this.skipped += 1;
    else if (test.outcome() === 'expected' || test.outcome() === 'flaky') this.passed += 1;
    else this.failed += 1;
  }

  onEnd(_result: FullResult) {
    const skipped = this.skipped ? `, ${this.skipped} skipped` : '';
    console.log(`e2e: ${this.passed} passed, ${this.failed} failed${skipped}`);
  }

  printsToStdio() {
    return false;
  }
}
