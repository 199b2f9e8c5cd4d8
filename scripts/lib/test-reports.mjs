// Reading the runners' JSON reports for `npm test`'s last lines: the counts, and the failed tests by file and
// name with the first lines of their message, printed last so the tail of a long CI log names them.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The first two non-empty lines of a failure ("the server exited with 1:" says little without the next), at most 300 characters. */
const firstLines = (text) =>
  String(text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(" ")
    .slice(0, 300);

/**
 * Vitest's JSON report (`--reporter=json`): its counts and its failed tests, each as
 * "label: file > full name" and the first line of the failure; a file that failed without a failed test
 * (it did not load, or an error outside any test) is named as the file. null when there is no report.
 */
export function readVitestReport(file, label) {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, "utf8"));
  const counts = {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
  };
  const failedTests = [];
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name);
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) failedTests.push(`${label}: ${where} > ${t.fullName}\n      ${firstLines(t.failureMessages?.[0])}`);
    if (failed.length === 0 && suite.status === "failed") failedTests.push(`${label}: ${where} (the file failed)\n      ${firstLines(suite.message)}`);
  }
  return { report, counts, failedTests };
}

/** Playwright's JSON report: the tests it marks unexpected (failed on every try), as "label: file:line > titles". */
export function failedPlaywrightTests(file, label) {
  const out = [];
  const walk = (suite, titles) => {
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === "unexpected")) {
        out.push(`${label}: ${spec.file}:${spec.line} > ${[...titles, spec.title].filter(Boolean).join(" > ")}`);
      }
    }
  };
  for (const suite of JSON.parse(readFileSync(file, "utf8")).suites ?? []) walk(suite, []);
  return out;
}
