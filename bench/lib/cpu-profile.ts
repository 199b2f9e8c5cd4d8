// The CPU profile a bench server wrote (node --cpu-prof): top self time by function and by where the code comes
// from (a package, node core, our build), over the measured window only; and the CPU time a server and its workers
// have used (/proc), the steady figure on a shared machine. Used by the load and API benches.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};

/**
 * Top self time of each server CPU profile under `dir` (*.cpuprofile), by function and by where the code comes from,
 * over the measured window only (`fromMs`..`toMs` after the server was spawned; the profile starts with the process).
 */
export function summariseProfile(dir: string, fromMs: number, toMs: number) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"));
  for (const file of files) {
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
      nodes: ProfileNode[];
      samples: number[];
      timeDeltas: number[];
    };
    const byNode = new Map<number, number>();
    let at = 0;
    profile.samples.forEach((id, i) => {
      const delta = (profile.timeDeltas[i] ?? 0) / 1000;
      at += delta;
      if (at >= fromMs && at <= toMs) byNode.set(id, (byNode.get(id) ?? 0) + delta);
    });
    const total = [...byNode.values()].reduce((a, b) => a + b, 0);
    const byFunction = new Map<string, number>();
    const byPlace = new Map<string, number>();
    for (const node of profile.nodes) {
      const selfMs = byNode.get(node.id) ?? 0;
      if (!selfMs) continue;
      const { functionName, url, lineNumber } = node.callFrame;
      const fn = `${functionName || "(anonymous)"} ${url ? `${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(build|server)\//, "$1/")}:${lineNumber + 1}` : ""}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + selfMs);
      byPlace.set(placeOf(functionName, url), (byPlace.get(placeOf(functionName, url)) ?? 0) + selfMs);
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([name, t]) => `    ${((100 * t) / total).toFixed(1).padStart(5)}%  ${name}`)
        .join("\n");
    console.log(
      `\n== CPU profile of a server process during the run (${file}, ${(total / 1000).toFixed(1)} s sampled) ==`,
    );
    console.log(`  self time by where the code comes from:\n${top(byPlace, 14)}`);
    console.log(`  top functions by self time:\n${top(byFunction, 20)}`);
  }
}

function placeOf(functionName: string, url: string): string {
  if (!url) {
    if (["(garbage collector)", "(idle)", "(program)"].includes(functionName)) return functionName;
    return "(native: V8 builtins, zlib, libuv)";
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith("node:")) return "node: core";
  if (url.includes("/build/server/")) return "our app (build/server)";
  if (url.includes("/server/")) return "our server (server/*.mjs)";
  return url;
}

/** CPU seconds (user + system) used so far by a process and its children that are still running (cluster workers). */
export function cpuSeconds(pid: number): number {
  const ticks = (p: string) => {
    const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
    return { ppid: Number(fields[1]), cpu: Number(fields[11]) + Number(fields[12]) };
  };
  let total = 0;
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      const { ppid, cpu } = ticks(entry);
      if (Number(entry) === pid || ppid === pid) total += cpu;
    } catch {
      // gone meanwhile
    }
  }
  return total / 100; // USER_HZ
}
