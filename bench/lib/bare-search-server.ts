// The API bench's ceiling (bench/api.ts): the same product searches as GET /api/v1/products, answered by a bare
// node:http handler calling the same search (the products service over the same engine and database) for a fixed
// user, with no Remix, no key check, no limiter and no API shapes; as many processes as the app's server
// (WEB_CONCURRENCY, default one a core, node:cluster). GET /healthz answers when it listens.
//
//   node --import tsx bench/lib/bare-search-server.ts   with PORT, HOST, DATABASE_URL, BENCH_USER_ID
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import { DEFAULT_PAGE_SIZE } from "~/domain/product-query";
import { researchAccess } from "~/domain/research-access";

const workers = Number(process.env.WEB_CONCURRENCY || os.availableParallelism());

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.once("SIGTERM", () => {
    const running = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    let left = running.length;
    for (const worker of running) {
      worker.once("exit", () => --left === 0 && process.exit(0));
      worker.process.kill("SIGTERM");
    }
  });
} else {
  const { db } = await import("~/db.server");
  const { loadUser } = await import("~/services/auth.server");
  const { products } = await import("~/services/index.server");
  const user = await loadUser(db, process.env.BENCH_USER_ID!);
  const access = researchAccess(user);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://bench");
    if (url.pathname === "/healthz") return res.end("ok");
    const params = new URLSearchParams(url.searchParams);
    params.set("page", "1");
    params.set("pageSize", String(DEFAULT_PAGE_SIZE));
    products.search({ userId: user.id, access, params }).then(
      (result) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ items: result.items, total: result.total }));
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      },
    );
  });
  server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
  process.once("SIGTERM", () => process.exit(0));
}
