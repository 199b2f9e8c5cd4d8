// Logo uploads (issue 21, decision 040): what checking and drawing a brand kit's logo costs, and whether the
// server's event loop stays free meanwhile. Prints, for each case, the time to an answer and how long the event
// loop was blocked (p99 / max, what a page request arriving meanwhile would wait):
// - an ordinary SVG logo, drawn in the separate drawing process (the process start is the overhead), against
//   drawing it in this process as before;
// - a heavy logo the static check allows (80 finely dashed circles), drawn in the drawing process, against the
//   same drawing on the event loop as before;
// - the report's 567-byte filter logo: refused by the static check before anything is drawn;
// - a logo the static check allows that takes far longer than the CPU budget: cut at the budget.
// Asserts nothing.
import { createRequire } from "node:module";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { inspectLogo, LogoError } from "~/integrations/logo-image.server";
import { LOGO_DRAWING } from "~/integrations/logo-drawing.server";
import { brandFontFiles } from "~/integrations/video-render.server";

const { Resvg } = createRequire(import.meta.url)("@resvg/resvg-js") as typeof import("@resvg/resvg-js");
const NS = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`;
const ORDINARY = `<svg ${NS} viewBox="0 0 100 50" width="200" height="100"><defs><linearGradient id="g"><stop offset="0" stop-color="#e11d48"/><stop offset="1" stop-color="#f59e0b"/></linearGradient></defs><rect width="100" height="50" rx="8" fill="url(#g)"/><text x="50" y="32" font-size="18" text-anchor="middle" fill="#fff">Brand</text></svg>`;
const circles = (count: number) =>
  `<svg ${NS} width="512" height="512">${Array.from({ length: count }, (_, i) => `<circle cx="256" cy="256" r="${100 + (i % 150)}" fill="none" stroke="#${(i * 97).toString(16).padStart(3, "0").slice(-3)}" stroke-width="3" stroke-dasharray="0.05 0.05" opacity="0.5"/>`).join("")}</svg>`;
const HEAVY = circles(80);
const TOO_SLOW = circles(1500);
const FILTER_BOMB = `<svg ${NS} width="512" height="512"><defs><filter id="f" x="-50%" y="-50%" width="200%" height="200%"><feTurbulence baseFrequency="0.01" numOctaves="10"/><feGaussianBlur stdDeviation="40"/></filter><g id="a"><rect width="512" height="512" filter="url(#f)"/></g></defs>${'<use xlink:href="#a"/>'.repeat(10)}</svg>`;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const fonts = brandFontFiles();

function inProcess(svg: string) {
  new Resvg(svg, { fitTo: { mode: "width", value: 512 }, font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: "DejaVu Sans" } }).render().asPng();
}

/** Median wall time and the event loop's worst blocks over the runs, with the answer's first words. */
async function measure(label: string, work: () => unknown, times = runs) {
  const ms: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const answers = new Map<string, number>();
  for (let i = 0; i < times; i++) {
    loop.enable();
    const t0 = performance.now();
    let answer = "drawn";
    try {
      await work();
    } catch (error) {
      if (!(error instanceof LogoError)) throw error;
      answer = `422 "${error.message.slice(0, 60)}…"`;
    }
    answers.set(answer, (answers.get(answer) ?? 0) + 1);
    ms.push(performance.now() - t0);
    // Let the histogram's timer fire once after the work: a block on the event loop is recorded late.
    await new Promise((resolve) => setTimeout(resolve, 30));
    loop.disable();
  }
  ms.sort((a, b) => a - b);
  const p99 = loop.percentile(99) / 1e6;
  const max = loop.max / 1e6;
  console.log(
    `${label.padEnd(58)} ${ms[Math.floor(ms.length / 2)].toFixed(0).padStart(6)} ms  event loop p99 ${p99.toFixed(0).padStart(5)} ms, max ${max.toFixed(0).padStart(5)} ms  ${[...answers].map(([a, k]) => `${k}x ${a}`).join("; ")}`,
  );
}

const bytes = (s: string) => new TextEncoder().encode(s);
console.log(`load average ${os.loadavg()[0].toFixed(1)}; ${runs} runs each (median); budgets: ${LOGO_DRAWING.cpuBudgetS} s of CPU, ${LOGO_DRAWING.timeBudgetMs / 1000} s wall clock, ${LOGO_DRAWING.memoryBudgetMb} MB`);
inProcess(ORDINARY); // load resvg and the fonts once
await measure("ordinary SVG logo, drawing process (now)", () => inspectLogo(bytes(ORDINARY)));
await measure("ordinary SVG logo, on the event loop (before)", () => inProcess(ORDINARY));
await measure("heavy allowed logo (80 dashed circles), drawing process", () => inspectLogo(bytes(HEAVY)), 3);
await measure("heavy allowed logo, on the event loop (before)", () => inProcess(HEAVY), 3);
await measure("567-byte filter logo x10 <use> (refused statically)", () => inspectLogo(bytes(FILTER_BOMB)));
await measure("allowed but far too slow (1,500 dashed circles), cut", () => inspectLogo(bytes(TOO_SLOW)), 1);
console.log(`load average ${os.loadavg()[0].toFixed(1)} at the end`);
