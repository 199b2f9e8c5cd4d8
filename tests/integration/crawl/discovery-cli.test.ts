// `npm run stores -- discover [--budget N]` as an operator runs it (decision 101): a child process under tsx on the
// test's database, its sources pointed at a local server answering recorded answers in crt.sh's documented shape.
// Usage mistakes exit 2; a budget of 0 says discovery is off; a source answering HTML is a printed skip with its
// sentence; candidates that cannot be verified are skipped with theirs; `list` marks discovered stores.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { runScript } from "../../helpers/cli";

let server: Server;
let origin: string;
let crt: [string, string] = ["application/json", "[]"];

beforeAll(async () => {
  server = createServer((_req, res) => void res.writeHead(200, { "content-type": crt[0] }).end(crt[1]));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const env = (budget: string) => ({
  ...process.env,
  DISCOVERY_BUDGET: budget,
  DISCOVERY_CDX_URL: "off",
  DISCOVERY_CT_URL: `${origin}/`,
  TRACKER_ALLOW_HOSTS: origin.replace("http://", ""),
});
const stores = (args: string[], budget = "0") => runScript("stores", args, { env: env(budget), timeout: 120_000 });

describe("npm run stores -- discover", () => {
  it("refuses usage mistakes with exit 2, and says discovery is off at a budget of 0", async () => {
    await dbReady;
    for (const args of [["discover", "--budget"], ["discover", "--budget", "many"], ["discover", "extra"], ["discover", "--budget", "2", "extra"]]) {
      const r = await stores(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain("Usage:");
    }
    const over = await stores(["discover", "--budget", "9000"]);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/a whole number from 0 to 5,000/);
    const off = await stores(["discover"]);
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/Discovery is off: the budget is 0/);
  }, 180_000);

  it("prints each source, what it added and what it skipped with why; a source answering HTML is a skip", async () => {
    await db.competitorStore.create({ data: { domain: "cli-known.myshopify.com", fetchDomain: "cli-known.myshopify.com", name: "known", operatorListed: true } });
    crt = ["text/html", "<!doctype html><title>Busy</title>"];
    const html = await stores(["discover", "--budget", "2"]);
    expect(html.code).toBe(0);
    expect(html.stdout).toContain("certificate-transparency: skipped, it answered with an HTML page, not JSON.");
    expect(html.stdout).toContain("0 discovered of a budget of 2");

    crt = [
      "application/json",
      JSON.stringify([
        { issuer_ca_id: 1, issuer_name: "C=US, O=Example CA", common_name: "cli-known.myshopify.com", name_value: "cli-known.myshopify.com", id: 11, entry_timestamp: "2026-12-01T00:00:00.000", not_before: "2026-12-01T00:00:00", not_after: "2027-03-01T00:00:00", serial_number: "0b" },
        { issuer_ca_id: 1, issuer_name: "C=US, O=Example CA", common_name: "*.myshopify.com", name_value: "*.myshopify.com", id: 12, entry_timestamp: "2026-12-01T00:00:00.000", not_before: "2026-12-01T00:00:00", not_after: "2027-03-01T00:00:00", serial_number: "0c" },
      ]),
    ];
    const r = await stores(["discover", "--budget", "2"], "5");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("certificate-transparency: 1 candidates.");
    expect(r.stdout).toContain("Skipped cli-known.myshopify.com (certificate-transparency): already observed (followed or on the operator's list).");
    expect(r.stdout).toContain("Skipped *.myshopify.com (certificate-transparency): a wildcard name, not one store.");
    expect(r.stdout).toContain("0 discovered of a budget of 2; 0 verified");

    await db.competitorStore.create({ data: { domain: "cli-found.myshopify.com", fetchDomain: "cli-found.myshopify.com", name: "found", operatorListed: true, origin: "discovered", discoveredFrom: "common-crawl" } });
    const list = await stores(["list"]);
    expect(list.stdout).toMatch(/cli-found\.myshopify\.com\s+0\s+discovered/);
    expect(list.stdout).toMatch(/cli-known\.myshopify\.com\s+0\s+yes/);
  }, 180_000);
});
