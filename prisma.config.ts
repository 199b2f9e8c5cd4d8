// Prisma CLI configuration. The CLI cannot download its Rust schema engine on these machines, so it
// runs the bundled WebAssembly engine through a driver adapter (docs/decisions/002): libSQL for a SQLite file or a
// libSQL server, pg for a postgres:// or postgresql:// DATABASE_URL, with the PostgreSQL schema and its migrations
// generated from prisma/schema.prisma (`npm run db:schemas`, docs/decisions/098).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? "file:./data/app.db";
const postgres = /^postgres(ql)?:\/\//i.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? path.join("prisma", "postgresql", "schema.prisma") : path.join("prisma", "schema.prisma"),
  async adapter() {
    if (postgres) return new PrismaPg({ connectionString: url });
    return new PrismaLibSQL({ url, authToken: process.env.DATABASE_AUTH_TOKEN || undefined });
  },
});
