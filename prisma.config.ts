// Prisma CLI configuration. The CLI cannot download its Rust schema engine on these machines, so it
// runs the bundled WebAssembly engine through the libSQL driver adapter (docs/decisions/002).
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  async adapter() {
    return new PrismaLibSQL({
      url: process.env.DATABASE_URL ?? "file:./data/app.db",
      authToken: process.env.DATABASE_AUTH_TOKEN || undefined,
    });
  },
});
