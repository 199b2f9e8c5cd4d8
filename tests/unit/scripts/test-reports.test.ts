// `npm test`'s last lines name the failed tests (scripts/lib/test-reports.mjs), read from reports the real
// runner wrote: Vitest runs a throw-away file with one passing test, one failing test and one file that
// cannot load.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { failedPlaywrightTests, readVitestReport } from "../../../scripts/lib/test-reports.mjs";

mkdirSync("test-results", { recursive: true });
const dir = mkdtempSync(path.resolve("test-results/reports-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readVitestReport", () => {
  it("counts the run and names each failed test with the first line of its failure, and a file that did not load", () => {
    writeFileSync(
      path.join(dir, "sample.test.mjs"),
      `import { describe, expect, it } from "vitest";
describe("a group", () => {
  it("passes", () => expect(1).toBe(1));
  it("fails", () => expect(2, "two is not three").toBe(3));
  it.skip("is skipped", () => {});
});`,
    );
    writeFileSync(path.join(dir, "broken.test.mjs"), `import "./missing-module.mjs";\n`);
    writeFileSync(path.join(dir, "vitest.config.mjs"), "export default { test: { include: ['*.test.mjs'] } };\n");
    const json = path.join(dir, "report.json");
    const run = spawnSync(
      path.resolve("node_modules/.bin/vitest"),
      ["run", "--root", dir, "--config", path.join(dir, "vitest.config.mjs"), "--reporter=json", `--outputFile.json=${json}`],
      { encoding: "utf8", env: { ...process.env, CI: "true" } },
    );
    expect(run.status).toBe(1);
    const read = readVitestReport(json, "vitest");
    expect(read?.counts).toEqual({ passed: 1, failed: 1, skipped: 1 });
    expect(read?.failedTests).toHaveLength(2);
    const [first, second] = [...(read?.failedTests ?? [])].sort();
    expect(first).toMatch(/^vitest: test-results\/reports-\w+\/broken\.test\.mjs \(the file failed\)\n\s+.*missing-module/);
    expect(second).toMatch(/^vitest: test-results\/reports-\w+\/sample\.test\.mjs > a group fails\n\s+.*two is not three/);
  });

  it("answers null when the runner wrote no report", () => {
    expect(readVitestReport(path.join(dir, "absent.json"), "vitest")).toBeNull();
  });
});

describe("failedPlaywrightTests", () => {
  it("names the specs Playwright marked unexpected, with their describe titles, and not the flaky or passed ones", () => {
    // The shape of Playwright's JSON reporter (suites nest by file, then describe; each spec's tests carry a status).
    const report = {
      suites: [
        {
          title: "billing.spec.ts",
          suites: [
            {
              title: "checkout",
              specs: [
                { title: "pays", file: "billing.spec.ts", line: 10, tests: [{ status: "unexpected" }] },
                { title: "retries", file: "billing.spec.ts", line: 20, tests: [{ status: "flaky" }] },
              ],
            },
          ],
          specs: [{ title: "opens", file: "billing.spec.ts", line: 3, tests: [{ status: "expected" }] }],
        },
      ],
    };
    const file = path.join(dir, "e2e.json");
    writeFileSync(file, JSON.stringify(report));
    expect(failedPlaywrightTests(file, "playwright")).toEqual(["playwright: billing.spec.ts:10 > checkout > pays"]);
  });
});
