// Draws an uploaded logo with resvg in a separate, short-lived process with time and memory budgets
// (issue 21, docs/decisions/040). Not a worker thread: resvg draws in native code, and Worker.terminate()
// cannot stop native code (measured: a terminate() issued 1 s into a 9 s render returned when the render
// ended, 8.2 s later, the thread burning a core all along). A process is killed (SIGKILL) past its wall-clock
// budget and its memory goes with it; the kernel caps its CPU time (`ulimit -t`) and its memory (`ulimit -d`,
// RLIMIT_DATA: the V8 heap and resvg's native allocations alike, where Worker resourceLimits would only count
// the V8 heap), so an allocation past the cap fails and the process aborts. The static check
// (svg-logo-limits) remains the first defence; this is the backstop for what it lets through. The process
// runs a few lines of plain JavaScript given with `node -e` (no file to locate in the Vite server build),
// reads one job on stdin and writes one JSON answer on stdout; at most two draw at once, a few more wait,
// and past that the upload is asked to retry.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { setPriority } from "node:os";

export const LOGO_DRAWING = {
  /** CPU time the drawing process may use (`ulimit -t`, whole seconds), its start (~0.1 s) included. */
  cpuBudgetS: 2,
  /**
   * Wall-clock time from start to answer. Longer than the CPU budget: the process runs at a lower priority
   * than the server, so on a busy machine an ordinary logo may wait for a core; the CPU budget bounds the work.
   */
  timeBudgetMs: 6000,
  /** The drawing process's data limit: V8 heap and resvg's native memory. */
  memoryBudgetMb: 384,
  /** Drawings at once, and how many more may wait for a turn. */
  concurrent: 2,
  waiting: 8,
} as const;

export interface DrawingBudget {
  cpuBudgetS?: number;
  timeBudgetMs?: number;
  memoryBudgetMb?: number;
}

export type LogoDrawProblem = "too-slow" | "too-much-memory" | "busy" | "no-size" | "unreadable";

export class LogoDrawError extends Error {
  constructor(
    readonly problem: LogoDrawProblem,
    message: string,
  ) {
    super(message);
    this.name = "LogoDrawError";
  }
}

export interface DrawnLogo {
  png: Uint8Array;
  width: number;
  height: number;
  /** Every pixel fully transparent. */
  blank: boolean;
}

// The drawing process. CommonJS (node -e): `require` of the resolved resvg path the parent passes in.
const DRAW_SOURCE = `
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const { Resvg } = require(job.resvg);
  const font = { loadSystemFonts: false, fontFiles: job.fonts, defaultFontFamily: "DejaVu Sans" };
  let out;
  try {
    const probe = new Resvg(job.svg, { font });
    const w = probe.width, h = probe.height;
    if (!(w > 0 && h > 0)) out = { error: "no-size" };
    else {
      const fitTo = w >= h
        ? { mode: "width", value: Math.max(1, Math.min(job.max, Math.round(w))) }
        : { mode: "height", value: Math.max(1, Math.min(job.max, Math.round(h))) };
      const image = new Resvg(job.svg, { fitTo, font }).render();
      const pixels = image.pixels;
      let blank = true;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) { blank = false; break; }
      out = { png: Buffer.from(image.asPng()).toString("base64"), width: image.width, height: image.height, blank };
    }
  } catch (error) {
    out = { error: "unreadable", message: String((error && error.message) || error).split("\\n")[0].slice(0, 120) };
  }
  process.stdout.write(JSON.stringify(out));
});
`;

const require = createRequire(import.meta.url);
let resvgPath: string | null = null;

let running = 0;
const queue: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= LOGO_DRAWING.concurrent) {
    if (queue.length >= LOGO_DRAWING.waiting)
      throw new LogoDrawError("busy", "Many logos are being drawn right now: try the upload again in a minute.");
    await new Promise<void>((resolve) => queue.push(resolve));
  }
  running++;
  return () => {
    running--;
    queue.shift()?.();
  };
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;

/**
 * Draws an SVG document fitted to at most `max` px a side, in its own process within the budget. Throws
 * LogoDrawError with a sentence: too slow, too much memory, no size, unreadable, or busy.
 */
export async function drawLogoSvg(
  svg: string,
  max: number,
  fonts: string[],
  budget: DrawingBudget = {},
): Promise<DrawnLogo> {
  const timeBudgetMs = budget.timeBudgetMs ?? LOGO_DRAWING.timeBudgetMs;
  const memoryBudgetMb = budget.memoryBudgetMb ?? LOGO_DRAWING.memoryBudgetMb;
  const cpuBudgetS = Math.max(1, Math.ceil(budget.cpuBudgetS ?? LOGO_DRAWING.cpuBudgetS));
  resvgPath ??= require.resolve("@resvg/resvg-js");
  const release = await turn();
  try {
    return await drawInProcess(JSON.stringify({ svg, max, fonts, resvg: resvgPath }), {
      timeBudgetMs,
      memoryBudgetMb,
      cpuBudgetS,
    });
  } finally {
    release();
  }
}

function drawInProcess(
  job: string,
  { timeBudgetMs, memoryBudgetMb, cpuBudgetS }: Required<DrawingBudget>,
): Promise<DrawnLogo> {
  const v8HeapMb = Math.max(16, Math.floor(memoryBudgetMb / 3));
  const nodeArgs = [`--max-old-space-size=${v8HeapMb}`, "-e", DRAW_SOURCE];
  // The limits are set by the shell, then `exec` makes that same process node: the pid we kill is node's.
  // Past the CPU limit the kernel sends SIGXCPU (whose default action ends the process).
  const [command, args]: [string, string[]] =
    process.platform === "win32"
      ? [process.execPath, nodeArgs]
      : [
          "/bin/sh",
          // Soft CPU limit at the budget (SIGXCPU), hard limit a second later (SIGKILL, in case SIGXCPU is caught).
          [
            "-c",
            'ulimit -d "$1" && ulimit -t "$(($2 + 1))" && ulimit -S -t "$2" || exit 90; shift 2; exec "$@"',
            "logo-drawing",
            String(memoryBudgetMb * 1024),
            String(cpuBudgetS),
            process.execPath,
            ...nodeArgs,
          ],
        ];
  const child = spawn(command, args, {
    env: { NODE_ENV: "production" },
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  try {
    if (child.pid) setPriority(child.pid, 10);
  } catch {
    // Not allowed to lower it: it still runs, at the same priority as the server.
  }
  return new Promise<DrawnLogo>((resolve, reject) => {
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let cut: LogoDrawError | null = null;
    const stop = (why: LogoDrawError) => {
      cut ??= why;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () =>
        stop(
          new LogoDrawError(
            "too-slow",
            `This logo takes too long to draw (more than ${seconds(timeBudgetMs)}): simplify it, or upload a PNG.`,
          ),
        ),
      timeBudgetMs,
    );
    child.stdout.on("data", (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > 16 * 1024 * 1024)
        stop(new LogoDrawError("unreadable", "The logo could not be drawn (its drawing was too large)."));
      else out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => {
      err = (err + c.toString("utf8")).slice(-2000);
    });
    // A process that died before reading its job closes stdin under us: the exit below says why.
    child.stdin.on("error", () => {});
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (cut) return reject(cut);
      if (code === 0) {
        let answer: {
          error?: string;
          message?: string;
          png?: string;
          width?: number;
          height?: number;
          blank?: boolean;
        };
        try {
          answer = JSON.parse(Buffer.concat(out).toString("utf8"));
        } catch {
          return reject(new LogoDrawError("unreadable", "The logo could not be drawn."));
        }
        if (answer.error === "no-size")
          return reject(
            new LogoDrawError("no-size", "The SVG has no size: give its <svg> a width and height or a viewBox."),
          );
        if (answer.error)
          return reject(
            new LogoDrawError("unreadable", `The SVG could not be read: ${answer.message ?? "unknown error"}`),
          );
        return resolve({
          png: Buffer.from(answer.png ?? "", "base64"),
          width: answer.width ?? 0,
          height: answer.height ?? 0,
          blank: answer.blank ?? true,
        });
      }
      if (code === 90) return reject(new Error(`The logo drawing process could not set its limits: ${err.trim()}`));
      if (signal === "SIGXCPU")
        return reject(
          new LogoDrawError(
            "too-slow",
            `This logo takes too long to draw (more than ${cpuBudgetS} s of drawing): simplify it, or upload a PNG.`,
          ),
        );
      // resvg aborts when an allocation fails under the limit (SIGABRT); V8 names a full heap.
      if (signal === "SIGABRT" || code === 134 || /memory allocation|out of memory|Fatal process OOM/i.test(err))
        return reject(
          new LogoDrawError(
            "too-much-memory",
            `This logo needs too much memory to draw (more than ${memoryBudgetMb} MB): simplify it, or upload a PNG.`,
          ),
        );
      reject(
        new LogoDrawError(
          "unreadable",
          `The logo could not be drawn (the drawing stopped: ${signal ?? `exit ${code}`}).`,
        ),
      );
    });
    child.stdin.end(job);
  });
}
