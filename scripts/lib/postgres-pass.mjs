// The integration tests run a second time on PostgreSQL (tests/postgres/pass.json, issue 38 item 5, decision 098):
// Vitest's arguments for them: the folders, the files of other folders that already are engine-neutral, and the
// folders' files listed as not yet engine-neutral left out.
import { readFileSync } from "node:fs";
import path from "node:path";

export function postgresPass() {
  const pass = JSON.parse(readFileSync(path.resolve("tests/postgres/pass.json"), "utf8"));
  const notYet = Object.keys(pass.notYet);
  return {
    args: [...pass.folders, ...(pass.files ?? []), ...notYet.flatMap((file) => ["--exclude", file])],
    env: { TEST_DATABASE: "postgresql" },
    notYet: notYet.length,
  };
}
