import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { currencyFromAnswer, storeCurrency } from "~/domain/catalogue/currency";
import { canConvert, convertCents, parseEcbCsv, parseEcbXml, parseRateFile, RateFileError, type RateTable } from "~/domain/landed-cost/exchange-rates";

// A trimmed copy of the ECB's published table of 18 July 2022 (the committed starter snapshot's day).
const TABLE: RateTable = {
  source: "European Central Bank, euro foreign exchange reference rates",
  date: "2022-07-18",
  base: "EUR",
  rates: { USD: "1.0131", JPY: "140.16", GBP: "0.84708", INR: "81.0340", IDR: "15157.63", CAD: "1.3151" },
};

describe("convertCents", () => {
  it("converts through the euro, rounds half-up and says the rate's date and the original amount", () => {
    expect(convertCents(2000, "EUR", "USD", TABLE)).toEqual({ cents: 2026, currency: "USD", convertedFrom: { cents: 2000, currency: "EUR" }, rateDate: "2022-07-18" });
    // 10000 USD cents = 10000 * 0.84708 / 1.0131 = 8361.26... GBP cents
    expect(convertCents(10000, "USD", "GBP", TABLE)?.cents).toBe(8361);
    // 1 JPY cent in USD is 0.0072 of a cent: 0. 70 JPY cents is 0.506 of a cent: 1 (half-up).
    expect(convertCents(1, "JPY", "USD", TABLE)?.cents).toBe(0);
    expect(convertCents(70, "JPY", "USD", TABLE)?.cents).toBe(1);
  });

  it("rounds an exact half up, not to even", () => {
    const table: RateTable = { ...TABLE, rates: { USD: "2" } };
    // 5 USD cents in EUR is 2.5 cents: 3, and 3 is 1.5: 2 (banker's rounding would give 2 and 2).
    expect(convertCents(5, "USD", "EUR", table)?.cents).toBe(3);
    expect(convertCents(3, "USD", "EUR", table)?.cents).toBe(2);
  });

  it("never converts an unknown currency, one the table lacks, or a fraction of a cent", () => {
    expect(convertCents(900, null, "USD", TABLE)).toBeNull();
    expect(convertCents(900, undefined, "USD", TABLE)).toBeNull();
    expect(convertCents(900, "XXX", "USD", TABLE)).toBeNull();
    expect(convertCents(900, "BRL", "USD", TABLE)).toBeNull();
    expect(convertCents(900, "USD", "BRL", TABLE)).toBeNull();
    expect(convertCents(900.5, "EUR", "USD", TABLE)).toBeNull();
    expect(convertCents(900, "EUR", "USD", null)).toBeNull();
    expect(canConvert(null, TABLE)).toBe(false);
    expect(canConvert("INR", TABLE)).toBe(true);
  });

  it("keeps the same currency as it is, with no rate date", () => {
    expect(convertCents(1999, "USD", "USD", TABLE)).toEqual({ cents: 1999, currency: "USD" });
  });

  it("property: there and back stays within half a cent per conversion, each in the currency it lands in", () => {
    const codes = ["EUR", ...Object.keys(TABLE.rates)];
    const perEuro = (c: string) => (c === "EUR" ? 1 : Number(TABLE.rates[c]));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constantFrom(...codes), fc.constantFrom(...codes), (cents, a, b) => {
        const there = convertCents(cents, a, b, TABLE)!;
        const back = convertCents(there.cents, b, a, TABLE)!;
        // The first rounding (at most half a cent of b) is worth perEuro(a)/perEuro(b) cents of a; the second at most half a cent of a.
        const bound = 0.5 * (perEuro(a) / perEuro(b)) + 0.5 + 1e-9;
        expect(Math.abs(back.cents - cents)).toBeLessThanOrEqual(bound);
        if (a !== b) expect(there.rateDate).toBe(TABLE.date);
      }),
      { numRuns: 2000 },
    );
  });

  it("property: an unknown currency never converts, whatever the amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constantFrom(...Object.keys(TABLE.rates)), (cents, to) => {
        expect(convertCents(cents, null, to, TABLE)).toBeNull();
      }),
    );
  });
});

describe("reading the ECB's files", () => {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>
		<Cube time='2022-07-18'>
			<Cube currency='USD' rate='1.0131'/>
			<Cube currency='JPY' rate='140.16'/>
			<Cube currency='GBP' rate='0.84708'/>
		</Cube>
	</Cube>
</gesmes:Envelope>`;

  it("reads the daily XML: its day and every rate as published", () => {
    const t = parseEcbXml(xml);
    expect(t.date).toBe("2022-07-18");
    expect(t.rates).toEqual({ GBP: "0.84708", JPY: "140.16", USD: "1.0131" });
    expect(parseRateFile(xml)).toEqual(t);
  });

  it("reads the CSV inside eurofxref.zip (a long date, a trailing comma, N/A cells)", () => {
    const csv = "Date, USD, JPY, RUB, GBP, \n18 July 2022, 1.0131, 140.16, N/A, 0.84708, \n";
    const t = parseEcbCsv(csv);
    expect(t.date).toBe("2022-07-18");
    expect(t.rates).toEqual({ GBP: "0.84708", JPY: "140.16", USD: "1.0131" });
  });

  it("refuses what is not a rates file with a sentence", () => {
    expect(() => parseRateFile("<html><body>Not found</body></html>")).toThrow(RateFileError);
    expect(() => parseRateFile("hello")).toThrow(/Date, USD/);
    expect(() => parseRateFile(xml.replace("1.0131", "-1"))).toThrow(/USD/);
    expect(() => parseRateFile(xml.replace("2022-07-18", "2022-13-45"))).toThrow(/calendar day/);
    expect(() => parseRateFile('{"date":"2022-07-18"}')).toThrow(/base/);
  });
});

describe("a store's currency from its answers", () => {
  const json = (body: unknown) => ({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
  it("takes /meta.json's, else /cart.js's, and says why each source gave none", () => {
    expect(storeCurrency([currencyFromAnswer("/meta.json", json({ currency: "EUR" }))])).toEqual({ currency: "EUR", from: "/meta.json", note: null });
    const html = { status: 200, contentType: "text/html; charset=utf-8", body: "<!doctype html><p>Hi</p>" };
    const r = storeCurrency([currencyFromAnswer("/meta.json", html), currencyFromAnswer("/cart.js", json({ token: "x", currency: "INR", items: [] }))]);
    expect(r).toEqual({ currency: "INR", from: "/cart.js", note: null });
    const none = storeCurrency([currencyFromAnswer("/meta.json", { status: 404, contentType: "text/html", body: "" }), currencyFromAnswer("/cart.js", html)]);
    expect(none.currency).toBeNull();
    expect(none.note).toBe("Currency unknown: /meta.json answered 404: no currency there. /cart.js answered a web page, not JSON: we read no currency from it.");
  });
  it("never takes a made-up or 'no currency' code", () => {
    for (const currency of ["usd", "XXX", "US$", 840, null]) expect(currencyFromAnswer("/cart.js", json({ currency })).currency).toBeNull();
    expect(currencyFromAnswer("/cart.js", { status: 200, contentType: "application/json", body: "{not json" }).currency).toBeNull();
  });
});
