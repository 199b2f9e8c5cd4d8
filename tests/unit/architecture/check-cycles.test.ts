// `npm run lint` runs scripts/check-cycles.mjs after ESLint: ESLint's no-cycle skips `import type`, so a circle made
// of type imports (video-frames and video-render once had one) passed it. These tests run the script on a small
// repository made for the purpose and on this one.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const script = path.resolve("scripts/check-cycles.mjs");
const dirs: string[] = [];

function repoWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "check-cycles-"));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  execFileSync("git", ["init", "-q"], { cwd: dir });
  return dir;
}

const run = (cwd: string) => spawnSync(process.execPath, [script], { cwd, encoding: "utf8" });

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("check-cycles", () => {
  it("refuses a circle made only of type imports, naming both modules", () => {
    const dir = repoWith({
      "app/integrations/frames.server.ts": `import type { Spec } from "~/integrations/render.server";\nexport const draw = (s: Spec) => s;\n`,
      "app/integrations/render.server.ts": `import { draw } from "./frames.server";\nexport interface Spec { w: number }\nexport const render = draw;\n`,
    });
    const result = run(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("app/integrations/frames.server.ts -> app/integrations/render.server.ts");
    expect(result.stderr).toContain("app/integrations/render.server.ts -> app/integrations/frames.server.ts");
  });

  it("finds a circle through a folder's modules and a longer path", () => {
    const dir = repoWith({
      "app/domain/a/one.ts": `import { two } from "../b/two";\nexport const one = two;\n`,
      "app/domain/b/two.ts": `import { three } from "~/domain/three";\nexport const two = three;\n`,
      "app/domain/three.ts": `export type { One } from "~/domain/a/one";\nexport const three = 3;\n`,
    });
    expect(run(dir).status).toBe(1);
  });

  it("passes when the shared type has a module of its own", () => {
    const dir = repoWith({
      "app/domain/spec.ts": `export interface Spec { w: number }\n`,
      "app/integrations/frames.server.ts": `import type { Spec } from "~/domain/spec";\nexport const draw = (s: Spec) => s;\n`,
      "app/integrations/render.server.ts": `import type { Spec } from "~/domain/spec";\nimport { draw } from "./frames.server";\nexport const render = (s: Spec) => draw(s);\n`,
    });
    const result = run(dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("no import circle among 3 modules");
  });

  it("holds for this repository's app/", () => {
    const result = run(process.cwd());
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
