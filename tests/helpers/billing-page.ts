// Billing & credits read as a person reads it, on either surface: the real route (/dashboard/billing with the site's
// session cookie, /app/billing with a Shopify session token for the shop) rendered on the server by render-route.ts,
// cut into its cards by their headings, with what it offers (links, script buttons, forms); and a form submitted as
// the browser sends it (its hidden fields, to its action), answered by the real action and read again.
// Import it after installing the fake Shopify OAuth (see fake-shopify-oauth.ts).
import { expect } from "vitest";
import * as embeddedRoute from "~/routes/app.billing";
import * as siteRoute from "~/routes/dashboard.billing";
import { outline, renderRoute, type FormOutline, type RouteModule } from "./render-route";
import type { CallOptions } from "./routes";
import { signSessionToken } from "./shopify";

const DESKTOP_CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

export interface BillingVisitor {
  route: RouteModule;
  path: "/dashboard/billing" | "/app/billing";
  auth: () => Promise<CallOptions>;
}

export const onSite = (cookie: string): BillingVisitor => ({ route: siteRoute, path: "/dashboard/billing", auth: async () => ({ cookie }) });

export const inAdmin = (shop: string): BillingVisitor => ({
  route: embeddedRoute,
  path: "/app/billing",
  auth: async () => ({ headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME } }),
});

export interface BillingView {
  status: number;
  url: string;
  /** Above the cards: the banners (an action's outcome, a Shopify notice, two subscriptions), titles included. */
  top: string;
  /** Each card's text by its title, titles in page order; dates read as <date>, times as <time>. */
  cards: Record<string, string>;
  /** The cards' titles. */
  headings: string[];
  links: string[];
  /** Buttons whose click runs script (a confirmation, a hand-off to the site, a Shopify charge, Paddle's overlay). */
  buttons: string[];
  /** Each form as "its hidden fields → its submit button". */
  forms: string[];
  /** The text of each element with a data-testid (what the end-to-end specs find them by). */
  testIds: Record<string, string>;
  raw: FormOutline[];
  html: string;
}

const PAGE_HEADER = "Billing & credits. This page is ready Billing & credits";
const undated = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}/g, "<date>").replace(/\b\d{2}:\d{2}\b/g, "<time>");

function read(status: number, url: string, html: string): BillingView {
  const o = outline(html);
  // A card's title is an h2 in headingMd (ui/shared/titled-card.tsx); a banner's title is an h2 in headingSm.
  const [before, ...cardHtml] = html.split(/(?=<h2\b[^>]*Polaris-Text--headingMd)/);
  const headings = cardHtml.map((h) => outline(h.slice(0, h.indexOf("</h2>") + 5)).text);
  const top = outline(before).text;
  expect(top.startsWith(PAGE_HEADER), top).toBe(true);
  for (const form of o.forms) {
    // Remix's <Form> without an action posts to the page it is on, query included.
    expect(form.method).toBe("post");
    expect(form.action).toBe(url);
  }
  return {
    status,
    url,
    top: undated(top.slice(PAGE_HEADER.length).trim()),
    cards: Object.fromEntries(cardHtml.map((h, i) => [headings[i], undated(outline(h).text)])),
    headings,
    links: o.links.map((l) => `${l.text} → ${l.href}`),
    buttons: o.buttons,
    forms: o.forms.map((f) => `${new URLSearchParams(f.fields)} → ${f.submit.join(" | ")}`),
    testIds: Object.fromEntries(
      [...html.matchAll(/<(\w+)\b[^>]*\sdata-testid="([^"]+)"[^>]*>([\s\S]*?)<\/\1>/g)].map(([, , id, inner]) => [id, undated(outline(inner).text)]),
    ),
    raw: o.forms,
    html,
  };
}

export async function openBilling(visitor: BillingVisitor, query = ""): Promise<BillingView> {
  const url = `${visitor.path}${query}`;
  const rendered = await renderRoute(visitor.route, url, await visitor.auth());
  if (rendered.html === null) throw new Error(`${url} answered ${rendered.status} instead of the page`);
  return read(rendered.status, url, rendered.html);
}

/** What a click on a script button sends (useSubmit's fields), or a form's fields sent again. */
export async function postBilling(visitor: BillingVisitor, url: string, fields: Record<string, string>): Promise<BillingView> {
  const rendered = await renderRoute(visitor.route, url, { ...(await visitor.auth()), method: "POST", form: fields });
  if (rendered.html === null) throw new Error(`POST ${url} answered ${rendered.status} instead of the page`);
  return read(rendered.status, url, rendered.html);
}

/** Submits the form whose button reads `label` on this view, as the browser would. */
export function submitBilling(visitor: BillingVisitor, view: BillingView, label: string): Promise<BillingView> {
  const forms = view.raw.filter((f) => f.submit.includes(label));
  expect(forms, `one form with a "${label}" button`).toHaveLength(1);
  return postBilling(visitor, forms[0].action, forms[0].fields);
}
