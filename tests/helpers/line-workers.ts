// Child processes speaking the line protocol of our multi-process tests and benchmarks: the child prints
// "ready", then reads commands ("go", "stop") on stdin and answers with JSON lines on stdout.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

export interface LineWorker {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: () => string;
}

/** Starts `tsx script` with the current environment plus `env`; its stderr is kept for error messages. */
export function spawnLineWorker(script: string, env: Record<string, string>): LineWorker {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stderr: () => stderr };
}

/** Waits for the worker's "ready" line; throws with what it printed instead. */
export async function workerReady(worker: LineWorker, name: string): Promise<void> {
  const first = await worker.lines.next();
  if (first.value !== "ready") throw new Error(`${name} did not start: ${first.value ?? ""} ${worker.stderr()}`);
}
