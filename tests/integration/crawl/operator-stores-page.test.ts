// The operator page's observed stores and catalogue status (/dashboard/operator, docs/decisions/047): only
// operators change the list; several domains are added at once; bad input is a 4xx sentence that changes
// nothing; followers are counted, never named, in the data and in the rendered page.
import { AppProvider } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { action as operatorAction, loader as operatorLoader } from "~/routes/dashboard.operator";
import type { ObservedStore } from "~/services/competitors.server";
import { OperatorStores } from "~/ui/operator/operator-stores";
import { call } from "../../helpers/routes";
import { createSignedInUser, createUser } from "../../helpers/site-users";

const post = (cookie: string, form: Record<string, string>) => call(operatorAction, "/dashboard/operator", { cookie, form });

describe("observed stores on the operator page", () => {
  it("is a 404 for anyone but an operator, and changes nothing", async () => {
    const user = await createSignedInUser();
    expect((await post(user.cookie, { intent: "stores-add", domains: "sneaky-add.com" })).status).toBe(404);
    expect(await db.competitorStore.count({ where: { domain: "sneaky-add.com" } })).toBe(0);
  });

  it("adds several domains, refuses bad ones with a sentence, pauses, resumes and removes", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const added = await post(operator.cookie, { intent: "stores-add", domains: "page-one.com\r\n\r\nhttps://page-two.com/products/x\n" });
    expect(added.status).toBe(200);
    expect(await added.json()).toEqual({ ok: true, message: "2 stores added (each read first within a day, at its own time)." });

    const bad = await post(operator.cookie, { intent: "stores-add", domains: "page-three.com\nhttp://" });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/^Nothing was added\. Line 2 \("http:\/\/"\): .+/);
    expect(await db.competitorStore.count({ where: { domain: "page-three.com" } })).toBe(0);
    const empty = await post(operator.cookie, { intent: "stores-add", domains: " \n " });
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Give at least one store domain, one per line.");
    const malformed = await post(operator.cookie, { intent: "store-pause" });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).message).toBe("That store change is not valid.");
    const unknown = await post(operator.cookie, { intent: "store-pause", domain: "never-added.com" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).message).toBe("never-added.com is not an observed store.");

    expect(await (await post(operator.cookie, { intent: "store-pause", domain: "page-one.com" })).json()).toEqual({
      ok: true,
      message: "page-one.com is paused: not read until you resume it.",
    });
    expect((await db.competitorStore.findUniqueOrThrow({ where: { domain: "page-one.com" } })).paused).toBe(true);
    expect((await post(operator.cookie, { intent: "store-resume", domain: "page-one.com" })).status).toBe(200);
    expect((await db.competitorStore.findUniqueOrThrow({ where: { domain: "page-one.com" } })).paused).toBe(false);
    expect(await (await post(operator.cookie, { intent: "store-remove", domain: "page-two.com" })).json()).toEqual({
      ok: true,
      message: "page-two.com is removed with its listings: nobody follows it.",
    });
    expect(await db.competitorStore.count({ where: { domain: "page-two.com" } })).toBe(0);
  });

  it("shows each store with its followers counted, never named, and the catalogue's status", async () => {
    const operator = await createSignedInUser({ isOperator: true });
    const follower = await createUser({ email: "hidden-follower@example.com" });
    const store = await db.competitorStore.create({
      data: { domain: "shown-store.com", fetchDomain: "shown-store.com", name: "shown-store.com", status: "parked", lastError: "Parked after 8 failed reads in a row; we stopped reading it. The last one said: blocked.", parkedAt: new Date() },
    });
    await db.competitor.create({ data: { userId: follower.id, storeId: store.id, name: "Their secret label" } });

    const res = await call(operatorLoader, "/dashboard/operator", { cookie: operator.cookie });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).not.toContain("hidden-follower");
    expect(body).not.toContain("Their secret label");
    const { observed } = JSON.parse(body) as { observed: { stores: ObservedStore[]; catalogue: Record<string, unknown> } };
    expect(observed.stores.find((s) => s.domain === "shown-store.com")).toMatchObject({ followers: 1, operatorListed: false, status: "parked" });
    expect(observed.catalogue).toMatchObject({ products: 0, lastMatchAt: null });

    const html = renderToString(
      createElement(AppProvider, { i18n: enTranslations }, createElement(OperatorStores, { stores: observed.stores, catalogue: observed.catalogue as never })),
    );
    expect(html).toContain("shown-store.com");
    expect(html).toContain("Followed by 1 user");
    expect(html).toContain("Parked after 8 failed reads in a row");
    expect(html).toContain("Measured catalogue");
    expect(html).not.toContain("hidden-follower");
  });
});
