// docs/decisions/README.md is the index of every decision with its status: a decision file added or
// superseded without its row here fails this test, so the index stays a true list.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve("docs/decisions");
const decisions = readdirSync(dir).filter((name) => /^\d{3}-.+\.md$/.test(name) && !name.startsWith("000-"));
const index = readFileSync(path.join(dir, "README.md"), "utf8");

function statusOf(name: string) {
  const line = readFileSync(path.join(dir, name), "utf8").match(/^Status:\s*(.+)$/m);
  return line?.[1]?.trim();
}

function indexRow(name: string) {
  return index.split("\n").find((line) => line.startsWith(`| [${name.slice(0, 3)}](${name})`));
}

describe("the decisions index", () => {
  it("has a template with the five parts", () => {
    const template = readFileSync(path.join(dir, "000-template.md"), "utf8");
    for (const part of ["Date:", "Status:", "## Context", "## Decision", "## Consequences"]) expect(template).toContain(part);
  });

  for (const name of decisions) {
    it(`lists ${name} with the status its file gives`, () => {
      const status = statusOf(name);
      expect(status, `${name} has a Status: line`).toBeTruthy();
      const row = indexRow(name);
      expect(row, `docs/decisions/README.md has a row for ${name}`).toBeTruthy();
      expect(row!.split(" | ").at(-1)!.replace(/ \|$/, "")).toBe(status);
    });
  }

  it("lists no decision that does not exist", () => {
    const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]).filter((name) => !name!.startsWith("000-"));
    expect(linked.filter((name) => !decisions.includes(name!))).toEqual([]);
  });
});
