// The last line of defence for the server process (docs/decisions/038): an error that escaped every request,
// job and timer (a callback that throws, a promise nobody awaits) is logged and the process keeps serving.
// Node's default is to exit, so one user able to trigger such a bug (issue 21: a DNS answer that made the
// SSRF check throw inside a lookup callback) could stop the site for everyone. Requests, jobs and timers
// catch their own errors first (a 5xx, a failed job attempt, a log line); reaching this guard is a bug to fix,
// which is why it logs at error level with the stack. Sentry, when SENTRY_DSN is set, reports the same errors
// through its own process handlers, which do not exit while this guard is installed.
//
// Two failures still end the process with exit code 1, because it could not serve anyway and a supervisor
// should restart it: the entry module failing while it loads (a missing or broken build, a bad variable),
// and a server that cannot listen (the port is taken).
import pino from "pino";

const INSTALLED = Symbol.for("winning-products.process-guard");

/**
 * Why this escaped error must end the process, or null to log it and keep going.
 * @param {unknown} error
 * @param {string} origin "uncaughtException" or "unhandledRejection", as Node passes it
 * @returns {string | null}
 */
export function fatalBecause(error, origin) {
  // With an "unhandledRejection" listener installed, Node sends a rejection here only when it comes from the
  // entry module while it loads (its top-level await: importing the build, reading the environment).
  if (origin === "unhandledRejection") return "the server failed while starting";
  const syscall = /** @type {{ syscall?: unknown, code?: unknown } | null} */ (error)?.syscall;
  // "bind" is how a cluster worker learns that the primary could not take the port for it.
  if (syscall === "listen" || syscall === "bind") return `the server cannot listen (${String(/** @type {{ code?: unknown }} */ (error).code)})`;
  return null;
}

/**
 * Installs the guard once per process (a second call does nothing).
 * @param {{ log?: Pick<import("pino").Logger, "error" | "fatal">, exit?: (code: number) => void }} [options]
 */
export function installProcessGuard(options = {}) {
  const processWithFlag = /** @type {NodeJS.Process & { [INSTALLED]?: boolean }} */ (process);
  if (processWithFlag[INSTALLED]) return;
  processWithFlag[INSTALLED] = true;
  // Synchronous, so the line is written even when the process exits right after it.
  const log =
    options.log ??
    pino({ base: { service: "winning-products", module: "process-guard" } }, pino.destination({ dest: 1, sync: true }));
  const exit = options.exit ?? ((code) => process.exit(code));

  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason, origin: "unhandledRejection" }, "a promise rejected with nobody to handle it; the process keeps serving");
  });
  process.on("uncaughtException", (error, origin) => {
    const fatal = fatalBecause(error, origin);
    if (fatal) {
      log.fatal({ err: error, origin }, `${fatal}; the process stops`);
      exit(1);
      return;
    }
    log.error({ err: error, origin }, "an error escaped its request, job or timer; the process keeps serving");
  });
}
