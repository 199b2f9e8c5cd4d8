// The operator page's observed stores and measured catalogue (docs/decisions/047): what it loads (every store the
// tracker knows, followers counted and never named, and the catalogue's status) and its four forms (add several
// domains, pause, resume, remove), parsed with zod. The route has already checked the user is an operator.
// Expected failures come back as the form's sentence with their status; nothing here is a 500.
import { data } from "@remix-run/node";
import { z } from "zod";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { parseBudget } from "~/domain/crawl/discovery";
import { catalogue, competitors, discovery } from "~/services/index.server";

export const STORE_INTENTS = ["stores-add", "store-pause", "store-resume", "store-remove", "stores-discover"] as const;

const StoreForm = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("stores-add"), domains: z.string().max(200_000, "That list is too long: add at most 5,000 stores at once.") }),
  z.object({ intent: z.literal("store-pause"), domain: z.string().min(1).max(300) }),
  z.object({ intent: z.literal("store-resume"), domain: z.string().min(1).max(300) }),
  z.object({ intent: z.literal("store-remove"), domain: z.string().min(1).max(300) }),
  // Discovery (decision 101): one run queued now with this budget (empty: the configured one).
  z.object({ intent: z.literal("stores-discover"), budget: z.string().max(20).optional() }),
]);

export async function loadObservedStores() {
  const [stores, status, found] = await Promise.all([competitors.listStores(), catalogue.status(), discovery.status()]);
  return { stores, catalogue: status, discovery: found };
}

export type ObservedStoresData = Awaited<ReturnType<typeof loadObservedStores>>;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One of the store forms: `{ ok, message }`, with a 4xx status when it was refused. */
export async function observedStoresAction(form: FormData) {
  const parsed = StoreForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const message = parsed.error.issues.find((i) => i.code === "too_big" && i.path[0] === "domains")?.message ?? "That store change is not valid.";
    return data({ ok: false, message }, { status: 400 });
  }
  const input = parsed.data;
  try {
    if (input.intent === "stores-add") {
      const r = await competitors.addStores(input.domains.split(/\r?\n/));
      const parts = [`${plural(r.added.length, "store")} added (each read first within a day, at its own time)`];
      if (r.listed.length > 0) parts.push(`${plural(r.listed.length, "followed store")} now on the list too`);
      if (r.already.length > 0) parts.push(`${r.already.length} already on the list`);
      return { ok: true, message: `${parts.join("; ")}.` };
    }
    if (input.intent === "stores-discover") {
      const budget = input.budget?.trim() ? parseBudget(input.budget) : undefined;
      const n = budget ?? (await discovery.status()).budget;
      if (n === 0) return data({ ok: false, message: "The budget is 0, so a run would add nothing: give a budget of 1 or more." }, { status: 400 });
      await discovery.enqueue(n);
      return { ok: true, message: `Discovery queued: it verifies candidates politely and adds at most ${plural(n, "store")} as discovered.` };
    }
    if (input.intent === "store-pause") {
      const r = await competitors.pauseStore(input.domain);
      return { ok: true, message: `${r.domain} is paused: not read until you resume it.` };
    }
    if (input.intent === "store-resume") {
      const r = await competitors.resumeStore(input.domain);
      return { ok: true, message: `${r.domain} is read again, starting now.` };
    }
    const r = await competitors.removeStore(input.domain);
    return {
      ok: true,
      message: r.deleted ? `${r.domain} is removed with its listings: nobody follows it.` : `${r.domain} is off the list; users follow it, so it is still read for them.`,
    };
  } catch (error) {
    const failure = expectedFailure(error);
    return data({ ok: false, message: failure.message }, { status: failure.status });
  }
}
