// Shopify's Billing API as the local Admin GraphQL server answers it (tests/helpers/fake-admin-graphql.ts):
// appSubscriptionCreate, appSubscriptionCancel, appSubscriptionTrialExtend, appPurchaseOneTimeCreate and
// currentAppInstallation { activeSubscriptions oneTimePurchases }, in the documented shapes. A charge is
// PENDING until its confirmation page (served by the same server, GET /admin/charges/:kind/:id/confirm)
// is approved or declined; approving follows Shopify: the merchant goes to returnUrl with ?charge_id=,
// the replaced subscription is cancelled. A frozen shop answers userErrors, as Shopify refuses charges
// while the shop's own bill is unpaid.

export interface FakeSubscription {
  id: string;
  name: string;
  status: "PENDING" | "ACTIVE" | "DECLINED" | "CANCELLED" | "EXPIRED" | "FROZEN";
  createdAt: string;
  updatedAt: string;
  trialDays: number;
  test: boolean;
  returnUrl: string;
  price: { amount: string; currencyCode: string };
  replacementBehavior: string | null;
}

export interface FakePurchase {
  id: string;
  name: string;
  status: "PENDING" | "ACTIVE" | "DECLINED";
  createdAt: string;
  test: boolean;
  returnUrl: string;
  price: { amount: string; currencyCode: string };
}

export interface FakeBillingState {
  subscriptions: Map<string, FakeSubscription>;
  purchases: Map<string, FakePurchase>;
  frozen: boolean;
  /** Called on every status change, e.g. to deliver the app_subscriptions/update webhook. */
  onChange?: (sub: FakeSubscription) => void | Promise<void>;
}

export function createFakeBillingState(): FakeBillingState {
  return { subscriptions: new Map(), purchases: new Map(), frozen: false };
}

let nextId = 7_000_000_001;

const userError = (message: string, field: string[] | null = null) => ({ field, message });

function subscriptionNode(s: FakeSubscription) {
  const created = Date.parse(s.createdAt);
  const cycle = 30 * 24 * 3600_000;
  const trialEnd = created + s.trialDays * 24 * 3600_000;
  const periods = Math.max(0, Math.floor((Date.now() - trialEnd) / cycle));
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    createdAt: s.createdAt,
    currentPeriodEnd: s.status === "ACTIVE" ? new Date(Date.now() < trialEnd ? trialEnd : trialEnd + (periods + 1) * cycle).toISOString() : null,
    trialDays: s.trialDays,
    test: s.test,
    lineItems: [{ plan: { pricingDetails: { price: s.price, interval: "EVERY_30_DAYS" } } }],
  };
}

function setStatus(state: FakeBillingState, s: FakeSubscription, status: FakeSubscription["status"]) {
  s.status = status;
  // Strictly later than the previous update, as Shopify's updated_at is.
  const last = Date.parse(s.updatedAt);
  s.updatedAt = new Date(Math.max(Date.now(), last + 1000)).toISOString();
  void state.onChange?.(s);
}

/** The answer to a billing operation, or null when the query is not one. */
export function answerBilling(
  state: FakeBillingState,
  baseUrl: string,
  query: string,
  variables: Record<string, unknown>,
  scriptedUserErrors: { field: string[] | null; message: string }[] | null,
): unknown | null {
  const confirm = (kind: string, id: string) => `${baseUrl}/admin/charges/${kind}/${id.split("/").pop()}/confirm`;
  if (/appSubscriptionCreate\s*\(/.test(query)) {
    const errors = scriptedUserErrors ?? [];
    const lineItems = variables.lineItems as { plan?: { appRecurringPricingDetails?: { price?: { amount?: unknown; currencyCode?: unknown }; interval?: unknown } } }[] | undefined;
    const pricing = lineItems?.[0]?.plan?.appRecurringPricingDetails;
    if (typeof variables.name !== "string" || !variables.name) errors.push(userError("Name can't be blank", ["name"]));
    if (typeof variables.returnUrl !== "string" || !/^https?:\/\//.test(variables.returnUrl)) errors.push(userError("Return url is invalid", ["returnUrl"]));
    if (!pricing?.price || !/^\d+(\.\d{1,2})?$/.test(String(pricing.price.amount))) errors.push(userError("Price must be a decimal amount", ["lineItems", "0", "plan"]));
    if (state.frozen) errors.push(userError("The shop is frozen and cannot accept new charges"));
    if (errors.length > 0) return { data: { appSubscriptionCreate: { appSubscription: null, confirmationUrl: null, userErrors: errors } } };
    const now = new Date().toISOString();
    const sub: FakeSubscription = {
      id: `gid://shopify/AppSubscription/${nextId++}`,
      name: variables.name as string,
      status: "PENDING",
      createdAt: now,
      updatedAt: now,
      trialDays: Number(variables.trialDays ?? 0),
      test: Boolean(variables.test),
      returnUrl: variables.returnUrl as string,
      price: { amount: String(pricing!.price!.amount), currencyCode: String(pricing!.price!.currencyCode) },
      replacementBehavior: (variables.replacementBehavior as string | undefined) ?? null,
    };
    state.subscriptions.set(sub.id, sub);
    return {
      data: { appSubscriptionCreate: { appSubscription: subscriptionNode(sub), confirmationUrl: confirm("subscription", sub.id), userErrors: [] } },
    };
  }
  if (/appSubscriptionCancel\s*\(/.test(query)) {
    const sub = state.subscriptions.get(String(variables.id));
    const errors = scriptedUserErrors ?? (!sub ? [userError("Subscription not found", ["id"])] : sub.status !== "ACTIVE" && sub.status !== "FROZEN" ? [userError("Subscription is not active", ["id"])] : []);
    if (errors.length > 0 || !sub) return { data: { appSubscriptionCancel: { appSubscription: null, userErrors: errors } } };
    setStatus(state, sub, "CANCELLED");
    return { data: { appSubscriptionCancel: { appSubscription: subscriptionNode(sub), userErrors: [] } } };
  }
  if (/appSubscriptionTrialExtend\s*\(/.test(query)) {
    const sub = state.subscriptions.get(String(variables.id));
    const days = Number(variables.days);
    let errors = scriptedUserErrors ?? [];
    if (!sub) errors = [{ ...userError("Subscription not found", ["id"]), code: "SUBSCRIPTION_NOT_FOUND" } as never];
    else if (sub.status !== "ACTIVE") errors = [{ ...userError("The trial can't be extended on an inactive subscription", ["id"]), code: "SUBSCRIPTION_NOT_ACTIVE" } as never];
    else if (Date.now() > Date.parse(sub.createdAt) + sub.trialDays * 24 * 3600_000) errors = [{ ...userError("The trial has already ended", ["id"]), code: "TRIAL_NOT_ACTIVE" } as never];
    else if (!Number.isInteger(days) || days < 1 || days > 1000) errors = [{ ...userError("Days must be between 1 and 1000", ["days"]), code: "INVALID" } as never];
    if (errors.length > 0 || !sub) return { data: { appSubscriptionTrialExtend: { appSubscription: null, userErrors: errors } } };
    sub.trialDays += days;
    setStatus(state, sub, sub.status);
    return { data: { appSubscriptionTrialExtend: { appSubscription: subscriptionNode(sub), userErrors: [] } } };
  }
  if (/appPurchaseOneTimeCreate\s*\(/.test(query)) {
    const errors = scriptedUserErrors ?? [];
    const price = variables.price as { amount?: unknown; currencyCode?: unknown } | undefined;
    if (!price || !/^\d+(\.\d{1,2})?$/.test(String(price.amount))) errors.push(userError("Price must be a decimal amount", ["price"]));
    if (state.frozen) errors.push(userError("The shop is frozen and cannot accept new charges"));
    if (errors.length > 0) return { data: { appPurchaseOneTimeCreate: { appPurchaseOneTime: null, confirmationUrl: null, userErrors: errors } } };
    const p: FakePurchase = {
      id: `gid://shopify/AppPurchaseOneTime/${nextId++}`,
      name: String(variables.name),
      status: "PENDING",
      createdAt: new Date().toISOString(),
      test: Boolean(variables.test),
      returnUrl: String(variables.returnUrl),
      price: { amount: String(price!.amount), currencyCode: String(price!.currencyCode) },
    };
    state.purchases.set(p.id, p);
    const node = { id: p.id, name: p.name, status: p.status, createdAt: p.createdAt, test: p.test };
    return { data: { appPurchaseOneTimeCreate: { appPurchaseOneTime: node, confirmationUrl: confirm("purchase", p.id), userErrors: [] } } };
  }
  if (/currentAppInstallation\s*\{/.test(query)) {
    const active = [...state.subscriptions.values()].filter((s) => s.status === "ACTIVE" || s.status === "FROZEN");
    const purchases = [...state.purchases.values()].reverse().map((p) => ({ id: p.id, name: p.name, status: p.status, createdAt: p.createdAt, test: p.test }));
    return { data: { currentAppInstallation: { activeSubscriptions: active.map(subscriptionNode), oneTimePurchases: { nodes: purchases } } } };
  }
  return null;
}

/** The merchant's answer on the confirmation page: where Shopify sends them next (returnUrl with charge_id). */
export function confirmCharge(state: FakeBillingState, kind: string, numericId: string, approve: boolean): string | null {
  if (kind === "subscription") {
    const sub = state.subscriptions.get(`gid://shopify/AppSubscription/${numericId}`);
    if (!sub || sub.status !== "PENDING") return null;
    if (approve) {
      // The new subscription replaces the shop's running one.
      for (const other of state.subscriptions.values()) if (other !== sub && other.status === "ACTIVE") setStatus(state, other, "CANCELLED");
    }
    setStatus(state, sub, approve ? "ACTIVE" : "DECLINED");
    return `${sub.returnUrl}${sub.returnUrl.includes("?") ? "&" : "?"}charge_id=${numericId}`;
  }
  const p = state.purchases.get(`gid://shopify/AppPurchaseOneTime/${numericId}`);
  if (!p || p.status !== "PENDING") return null;
  p.status = approve ? "ACTIVE" : "DECLINED";
  return `${p.returnUrl}${p.returnUrl.includes("?") ? "&" : "?"}charge_id=${numericId}`;
}

/** The confirmation page Shopify shows the merchant (Approve / Decline). */
export function confirmationPage(state: FakeBillingState, kind: string, numericId: string): string | null {
  const item = kind === "subscription" ? state.subscriptions.get(`gid://shopify/AppSubscription/${numericId}`) : state.purchases.get(`gid://shopify/AppPurchaseOneTime/${numericId}`);
  if (!item) return null;
  const what = kind === "subscription" ? `${item.price.amount} ${item.price.currencyCode} every 30 days` : `${item.price.amount} ${item.price.currencyCode} once`;
  return `<!doctype html><html><head><title>Approve charge</title></head><body><h1>${item.name}</h1><p>${what}${item.test ? " (test charge)" : ""}</p>
<form method="post"><input type="hidden" name="answer" value="approve"><button type="submit">Approve</button></form>
<form method="post"><input type="hidden" name="answer" value="decline"><button type="submit">Decline</button></form></body></html>`;
}
