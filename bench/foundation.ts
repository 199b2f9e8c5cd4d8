// Foundation figures (part of `npm run bench`), on a scratch database.
// Foundation figures: password hashing cost and signed-in session lookups per second.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const dir = path.resolve("bench/.data/foundation");
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const url = `file:${path.join(dir, "bench.db")}`;
Object.assign(process.env, { DATABASE_URL: url, NODE_ENV: "test", LOG_LEVEL: "silent", SESSION_SECRET: "bench-secret-0123456789" });
execFileSync(path.resolve("node_modules/.bin/prisma"), ["migrate", "deploy"], {
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/true" },
  stdio: "ignore",
});

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const { db, dbReady } = await import("~/db.server");
  const auth = await import("~/services/accounts/auth.server");
  const siteSession = await import("~/pages/http/site-session.server");
  const { hashPassword } = await import("~/services/accounts/password-hashing.server");
  await dbReady;

  const hashTimes: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await hashPassword("correct horse battery staple");
    hashTimes.push(performance.now() - t);
  }
  hashTimes.sort((a, b) => a - b);
  console.log(`password hash (scrypt N=16384): p50 ${percentile(hashTimes, 50).toFixed(1)} ms`);

  // No client address: the per-address sign-up limit (decision 064) counts nothing here.
  const signup = await auth.signup(db, { email: "bench@example.com", password: "bench-password" }, { ip: null }, { signup: async () => {} });
  const request = new Request("http://bench.local/");
  const cookie = (await siteSession.createUserSession(signup.userId, request)).split(";")[0];
  const authed = new Request("http://bench.local/dashboard", { headers: { cookie } });

  const n = 5000;
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await siteSession.getUser(authed);
    times.push(performance.now() - t);
  }
  const total = performance.now() - start;
  times.sort((a, b) => a - b);
  console.log(
    `session lookup (cookie -> user): ${Math.round((n / total) * 1000)} /s, p50 ${percentile(times, 50).toFixed(3)} ms, p99 ${percentile(times, 99).toFixed(3)} ms`,
  );
  console.log(`RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
  await db.$disconnect();
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
