// `npm run bench -- crawl-pg`: bench/crawl.ts on PostgreSQL (issue 38's figure: stores read an hour with 1, 2 and 4
// worker processes on one PostgreSQL database, the jobs on pg-boss), beside `npm run bench -- crawl` on SQLite.
process.env.BENCH_CRAWL_ENGINE = "postgresql";
await import("./crawl");
export {};
