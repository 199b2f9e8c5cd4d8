// Store discovery on the operator page (/dashboard/operator, decision 101): the page loads the budget, the sources and
// how many stores discovery found, marks discovered stores, and queues a run with a budget; a bad budget is a 400
// sentence that queues nothing; only operators may.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as operatorAction, loader as operatorLoader } from "~/routes/dashboard.operator";
import { OperatorStores } from "~/ui/operator/operator-stores";
import { jobsOf } from "../../helpers/jobs";
import { call } from "../../helpers/routes";
import { createSignedInUser } from "../../helpers/site-users";

const post = (cookie: string, form: Record<string, string>) => call(operatorAction, "/dashboard/operator", { cookie, form });
const queued = async () => (await jobsOf("crawl.discover")).map((j) => ({ payload: j.payload, status: j.status }));

describe("store discovery on the operator page", () => {
  it("queues a run with the operator's budget; a bad budget or anyone but an operator changes nothing", async () => {
    const user = await createSignedInUser();
    expect((await post(user.cookie, { intent: "stores-discover", budget: "5" })).status).toBe(404);
    const operator = await createSignedInUser({ isOperator: true });
    for (const budget of ["many", "-1", "2.5", "9000"]) {
      const bad = await post(operator.cookie, { intent: "stores-discover", budget });
      expect(bad.status, budget).toBe(400);
      expect((await bad.json()).message).toMatch(/^The budget is how many stores one run may add: a whole number from 0 to 5,000\.$/);
    }
    const zero = await post(operator.cookie, { intent: "stores-discover", budget: "" });
    expect(zero.status).toBe(400);
    expect((await zero.json()).message).toMatch(/The budget is 0/);
    expect(await queued()).toEqual([]);

    const ok = await post(operator.cookie, { intent: "stores-discover", budget: "3" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, message: "Discovery queued: it verifies candidates politely and adds at most 3 stores as discovered." });
    // Pressed twice: one run queued (keyed); the queued one keeps its budget.
    await post(operator.cookie, { intent: "stores-discover", budget: "4" });
    const jobs = await queued();
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(jobs[0].payload)).toEqual({ budget: 3 });
  });

  it("shows the budget, the sources, how many were discovered and marks discovered stores", async () => {
    await db.competitorStore.create({ data: { domain: "page-found.myshopify.com", fetchDomain: "page-found.myshopify.com", name: "x", operatorListed: true, origin: "discovered", discoveredFrom: "certificate-transparency" } });
    await db.competitorStore.create({ data: { domain: "page-typed.com", fetchDomain: "page-typed.com", name: "y", operatorListed: true } });
    const operator = await createSignedInUser({ isOperator: true });
    const res = await call(operatorLoader, "/dashboard/operator", { cookie: operator.cookie });
    const { observed } = await res.json();
    expect(observed.discovery).toEqual({ budget: 0, sources: ["certificate-transparency", "common-crawl"], discovered: 1 });
    expect(observed.stores.find((s: { domain: string }) => s.domain === "page-found.myshopify.com").origin).toBe("discovered");
    expect(observed.stores.find((s: { domain: string }) => s.domain === "page-typed.com").origin).toBe("listed");

    const html = renderToString(
      createElement(AppProvider, { i18n: enTranslations }, createElement(OperatorStores, { stores: observed.stores, catalogue: observed.catalogue, discovery: observed.discovery })),
    );
    expect(html).toContain("Store discovery");
    expect(html).toContain("Off (0)");
    expect(html).toContain("Sources: certificate-transparency and common-crawl.");
    expect(html.match(/>Discovered</g)).toHaveLength(1);
  });
});
