import { readFileSync } from "node:fs";
const mode = process.argv[2];
const url = "file:./bench/.data/diag.db";
const { createClient } = await import("@libsql/client");
const { createDb } = await import("~/db.server");
const big = JSON.stringify(Array.from({ length: 500 }, (_, i) => ["x" + i, "a".repeat(3000)]));
const gc = (globalThis as { gc?: () => void }).gc!;
const anon = () => Math.round(Number(readFileSync("/proc/self/status", "utf8").match(/RssAnon:\s+(\d+)/)![1]) / 1e3);
const sql = "SELECT count(*) AS n, sum(length(value ->> 1)) AS l FROM json_each(?)";
const c = createClient({ url });
const db = createDb(url);
for (let i = 0; i <= 400; i++) {
  if (mode === "libsql") await c.execute({ sql, args: [big] });
  else if (mode === "prisma") await db.$queryRawUnsafe(sql, big);
  else if (mode === "libsql-inline") await c.execute(sql.replace("?", "'" + big.replace(/'/g, "''") + "'"));
  else if (mode === "libsql-blob") await c.execute({ sql: sql.replace("json_each(?)", "json_each(CAST(? AS TEXT))"), args: [new TextEncoder().encode(big)] });
  else if (mode === "prisma-inline") await db.$queryRawUnsafe(sql.replace("?", "'" + big.replace(/'/g, "''") + "'"));
  else if (mode === "libsql-small") await c.execute({ sql, args: ["[1,2,3]"] });
  else if (mode === "prisma-tx") await db.$transaction([db.$queryRawUnsafe(sql, big), db.$queryRawUnsafe(sql, big)]);
  if (process.env.TURN && i % 10 === 0) await new Promise((r) => setImmediate(r));
  if (i % 100 === 0) { if (!process.env.NOGC) gc(); console.log(mode, i, "anon", anon(), "heap", Math.round(process.memoryUsage().heapTotal / 1e6)); }
}
