// The Drops page's loader and action, shared by the site (/dashboard/drops) and the embedded app (/app/drops).
// Each surface's route authenticates its own way and hands the user over. The rules are the product drops
// service's (docs/decisions/030); the JSON API (/api/drops) answers the same from the same service.
import { data } from "@remix-run/node";
import { z } from "zod";
import { parseDropDate } from "~/domain/products/product-drops";
import { productDropsAccess, researchAccess } from "~/domain/products/research-access";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { exportLinks } from "~/pages/research/export.server";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { landedCost, productDrops } from "~/services/index.server";
import type { RevealedDrop } from "~/services/products/drops.server";

/**
 * The countdown, the visible drops, who may reveal, and one revealed drop's products: the one named by
 * ?date= when the user revealed it, else the newest revealed one. A ?date= the user has not revealed (or
 * that names no drop) shows the list with a sentence.
 */
export async function loadDropsPage(request: Request, user: User, surface: Surface = "site") {
  const { nextDropDate, drops } = await productDrops.list(user.id);
  const access = productDropsAccess(user);
  const asked = new URL(request.url).searchParams.get("date");
  let notice: string | null = null;
  let shown: RevealedDrop | null = null;
  const askedDate = asked === null ? null : parseDropDate(asked);
  if (asked !== null && askedDate === null) notice = `“${asked}” is not a date like 2026-11-23.`;
  const target = askedDate ?? drops.find((d) => d.revealed)?.date ?? null;
  if (target) {
    try {
      shown = await productDrops.get(user, target);
    } catch (error) {
      notice = expectedFailure(error).message;
    }
  }
  // Today's margin after duty and fees of the shown drop's products, as the grid's cards show it: a lapsed duty
  // layer is flagged on each (issue 24, decision 066); the reasons keep the figures of the drop's day.
  const insights = researchAccess(user);
  const landed = shown && insights.insights ? await landedCost.landedMargins({ userId: user.id, objectIDs: shown.products.map((p) => p.objectID), access: insights }) : {};
  return {
    nextDropDate,
    now: new Date().toISOString(),
    drops,
    shown,
    landed,
    notice,
    // The shown drop as a file, with each product's landed cost (decision 057).
    exportLinks: shown && researchAccess(user).insights ? exportLinks(surface, user.id, `/api/drops/${shown.date}/export`) : null,
    access: { reveal: access.reveal, lockedReason: access.lockedReason, upgradeUrl: access.upgradeUrl },
  };
}

export interface DropsActionResult {
  ok: boolean;
  /** The date the reveal was for (null when the form had none). */
  date: string | null;
  message: string;
  /** The revealed drop, shown at once. */
  drop: RevealedDrop | null;
  upgradeUrl: string | null;
}

const RevealForm = z.object({
  intent: z.literal("reveal", { error: "intent must be reveal." }),
  date: z.string().trim().min(1).max(20),
});

/** Reveal one drop (paid states; revealing again is harmless). */
export async function dropsPageAction(request: Request, user: User) {
  const form = RevealForm.safeParse(Object.fromEntries(await readForm(request)));
  if (!form.success) {
    const issue = form.error.issues[0];
    const field = String(issue?.path[0] ?? "intent");
    return data<DropsActionResult>(
      { ok: false, date: null, message: field === "intent" ? (issue?.message ?? "Unknown action.") : `${field} is not valid.`, drop: null, upgradeUrl: null },
      { status: 400 },
    );
  }
  try {
    const drop = await productDrops.reveal(user, form.data.date);
    return data<DropsActionResult>({ ok: true, date: drop.date, message: `Revealed the ${drop.date} drop: ${drop.productCount} products.`, drop, upgradeUrl: null });
  } catch (error) {
    const failure = expectedFailure(error);
    const upgradeUrl = typeof failure.details.upgradeUrl === "string" ? failure.details.upgradeUrl : null;
    return data<DropsActionResult>({ ok: false, date: form.data.date, message: failure.message, drop: null, upgradeUrl }, { status: failure.status });
  }
}
