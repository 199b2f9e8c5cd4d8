// Reference exchange rates (issue 37 item 5, decision 089): `npm run rates -- import FILE` on files shaped as the
// ECB publishes them, and the daily refresh against a local HTTP server speaking the ECB's daily XML (and one that
// answers a web page, and none at all): the table in use changes only on a real rates document.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db, dbReady } from "~/db.server";
import { createSafeFetcher, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { currentRateTable, refreshRates, starterRateTable } from "~/services/landed-cost/exchange-rates.server";
import { runScript } from "../../helpers/cli";

const dir = mkdtempSync(path.join(tmpdir(), "rates-"));
const starter = JSON.parse(readFileSync("content/exchange-rates/ECB-2022-07-18.json", "utf8")) as { rates: Record<string, string> };

/** The ECB's eurofxref-daily.xml shape, every currency of the starter's day, dated `date`. */
function ecbXml(date: string, scale = 1): string {
  const cubes = Object.entries(starter.rates)
    .map(([c, r]) => `\t\t\t<Cube currency='${c}' rate='${scale === 1 ? r : (Number(r) * scale).toFixed(4)}'/>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes}
\t\t</Cube>
\t</Cube>
</gesmes:Envelope>
`;
}

let server: http.Server;
let base: string;
let fetcher: SafeFetcher;
let answer: { status: number; type: string; body: string } = { status: 200, type: "text/xml", body: ecbXml("2026-12-04") };

beforeAll(async () => {
  server = http.createServer((_req, res) => void res.writeHead(answer.status, { "content-type": answer.type }).end(answer.body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://ecb.test:${port}`;
  fetcher = createSafeFetcher({ contactUrl: "https://winningproducts.test/", lookup: async () => [{ address: "127.0.0.1", family: 4 }], allowHosts: [`127.0.0.1:${port}`], timeoutMs: 2_000 });
});
afterAll(async () => {
  fetcher.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  await dbReady;
  await db.exchangeRateTable.deleteMany();
});

describe("npm run rates -- import FILE", { timeout: 40_000 }, () => {
  it("uses the committed starter until a day is imported", async () => {
    const table = await currentRateTable(db);
    expect(table).toEqual(starterRateTable());
    expect(table.date).toBe("2022-07-18");
    expect(table.rates.USD).toBe("1.0131");
  });

  it("imports the ECB's daily XML as published", async () => {
    const file = path.join(dir, "eurofxref-daily.xml");
    writeFileSync(file, ecbXml("2026-12-04"));
    const run = await runScript("rates", ["import", file]);
    expect(run.stderr).not.toMatch(/rates:/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Imported the reference rates of 2026-12-04 \(31 currencies for one euro, European Central Bank/);
    const table = await currentRateTable(db);
    expect(table.date).toBe("2026-12-04");
    expect(table.rates.INR).toBe("81.0340");
  });

  it("imports the CSV of eurofxref.zip", async () => {
    const file = path.join(dir, "eurofxref.csv");
    const codes = Object.keys(starter.rates);
    writeFileSync(file, `Date, ${codes.join(", ")}, \n7 December 2026, ${codes.map((c) => starter.rates[c]).join(", ")}, \n`);
    const run = await runScript("rates", ["import", file]);
    expect(run.code).toBe(0);
    expect((await currentRateTable(db)).date).toBe("2026-12-07");
  });

  it("refuses a file that is not a rates table with a sentence, and changes nothing", async () => {
    const file = path.join(dir, "page.html");
    writeFileSync(file, "<!doctype html><html><body>Maintenance</body></html>");
    const run = await runScript("rates", ["import", file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/(^|\n)rates: The (file is not the ECB's reference-rate XML|ECB XML has no dated)/);
    expect(await db.exchangeRateTable.count()).toBe(0);
    const missing = await runScript("rates", ["import", path.join(dir, "absent.xml")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/could not be read/);
  }, 60_000);
});

describe("the daily refresh", () => {
  it("stores the day the ECB's XML states, and a later day replaces it as the one in use", async () => {
    answer = { status: 200, type: "text/xml", body: ecbXml("2026-12-04") };
    expect(await refreshRates(db, { fetcher, url: `${base}/stats/eurofxref/eurofxref-daily.xml` })).toEqual({ kind: "imported", date: "2026-12-04", currencies: 31 });
    answer = { status: 200, type: "text/xml", body: ecbXml("2026-12-07", 1.01) };
    await refreshRates(db, { fetcher, url: `${base}/stats/eurofxref/eurofxref-daily.xml` });
    const table = await currentRateTable(db);
    expect(table.date).toBe("2026-12-07");
    expect(table.rates.USD).toBe("1.0232");
  });

  it("keeps the table in use when the answer is a web page or an error, or nothing answers", async () => {
    answer = { status: 200, type: "text/html", body: "<!doctype html><html><body>Service unavailable</body></html>" };
    const page = await refreshRates(db, { fetcher, url: `${base}/daily.xml` });
    expect(page).toMatchObject({ kind: "kept", date: "2022-07-18" });
    answer = { status: 503, type: "text/plain", body: "busy" };
    expect(await refreshRates(db, { fetcher, url: `${base}/daily.xml` })).toEqual({ kind: "kept", date: "2022-07-18", reason: `${base}/daily.xml answered 503.` });
    const offline = await refreshRates(db, { fetcher, url: "http://127.0.0.1:9/daily.xml" });
    expect(offline.kind).toBe("kept");
    expect(await db.exchangeRateTable.count()).toBe(0);
  });
});
