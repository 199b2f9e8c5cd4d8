// Runs one of our CLI scripts (scripts/NAME.ts) as an operator does: a child process under tsx, from the repo
// root. Never throws: a non-zero exit comes back as its code with what the script printed.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runScript(
  script: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeout?: number } = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(path.resolve("node_modules/.bin/tsx"), [`scripts/${script}.ts`, ...args], {
      env: options.env ?? process.env,
      cwd: path.resolve("."),
      timeout: options.timeout ?? 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}
