// Worker processes for the multi-process tests (jobs, tracker, outbox): each runs a tsx script that prints
// "ready" once set up, then answers one line per command it reads on stdin. Nothing here is timed: `until`
// polls for an outcome and gives up only after a generous limit, with what it waited for in the error.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

export interface WorkerProcess {
  owner: string;
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterator<string>;
  stderr: () => string;
}

/** Every worker started by `startWorkerProcesses`, so `killWorkerProcesses` can end them after a test. */
const running: WorkerProcess[] = [];

/**
 * Starts one process per owner running `script` (with `tsx`), each with the test's environment plus what
 * `envFor(owner)` adds, and waits until every one has printed "ready".
 */
export async function startWorkerProcesses(script: string, owners: string[], envFor: (owner: string) => Record<string, string>): Promise<WorkerProcess[]> {
  const started = owners.map((owner) => {
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: process.cwd(),
      env: { ...process.env, ...envFor(owner) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return { owner, child, lines, stderr: () => stderr };
  });
  running.push(...started);
  for (const w of started) {
    const first = await w.lines.next();
    if (first.value !== "ready") throw new Error(`worker ${w.owner} did not start: ${first.value ?? ""} ${w.stderr()}`);
  }
  return started;
}

/** Sends a command line and returns the worker's one-line answer. */
export async function ask(w: WorkerProcess, command: string): Promise<string> {
  w.child.stdin.write(`${command}\n`);
  const line = await w.lines.next();
  if (line.done) throw new Error(`worker ${w.owner} stopped: ${w.stderr()}`);
  return line.value;
}

/** Kills (SIGKILL) every worker still running; for afterEach/afterAll. */
export function killWorkerProcesses() {
  for (const w of running.splice(0)) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGKILL");
}

/** Polls `check` every `pollMs` until it holds; throws "gave up waiting for <what>" after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, { timeoutMs = 120_000, pollMs = 100 } = {}) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
