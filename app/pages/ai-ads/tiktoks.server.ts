// The TikToks page's loader and action, shared by the site (/dashboard/tiktoks) and the embedded app
// (/app/tiktoks), and the form the product page's "Seen on TikTok" card posts to (intent add with the
// product's objectID). The rules are the TikTok library's (app/services/ai-ads/tiktoks.server.ts).
import { data } from "@remix-run/node";
import { z } from "zod";
import { researchAccess } from "~/domain/products/research-access";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { products, tiktoks } from "~/services/index.server";

/** The user's saved videos (optionally one product's, ?product=) and the saved products to attach new ones to. */
export async function loadTikToksPage(user: User, request: Request) {
  const objectID = new URL(request.url).searchParams.get("product")?.trim().slice(0, 200) || null;
  const [list, saved] = await Promise.all([
    tiktoks.list(user.id, objectID ? { objectID } : {}),
    products.listSaved(user.id, researchAccess(user)),
  ]);
  const choices = saved.map((p) => ({ objectID: p.objectID, title: p.title }));
  const current = objectID ? await products.getProduct({ userId: user.id, objectID, access: researchAccess(user) }).catch(() => null) : null;
  if (current && !choices.some((c) => c.objectID === current.objectID)) choices.unshift({ objectID: current.objectID, title: current.title });
  return { tiktoks: list, products: choices, filter: current ? { objectID: current.objectID, title: current.title } : null };
}

export interface TikTokActionResult {
  ok: boolean;
  intent: string;
  message: string;
  fieldErrors: Record<string, string>;
}

const Form = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("add"), url: z.string().max(2000).default(""), objectID: z.string().max(200).default(""), note: z.string().max(5000).default("") }),
    z.object({ intent: z.literal("remove"), id: z.coerce.number().int().positive().max(2_147_483_647) }),
    z.object({ intent: z.literal("refetch"), id: z.coerce.number().int().positive().max(2_147_483_647) }),
  ],
  { error: "intent must be add, remove or refetch." },
);

function result(status: number, r: Omit<TikTokActionResult, "fieldErrors"> & { fieldErrors?: Record<string, string> }) {
  return data<TikTokActionResult>({ fieldErrors: {}, ...r }, { status });
}

/** Add a video link to a product, remove one, or fetch its title again. */
export async function tiktoksPageAction(request: Request, user: User) {
  const raw = Object.fromEntries(await readForm(request));
  const form = Form.safeParse(raw);
  if (!form.success) {
    const intent = typeof raw.intent === "string" ? raw.intent : "";
    // A malformed id names no saved video of anyone's.
    if (intent === "remove" || intent === "refetch") return result(404, { ok: false, intent, message: "No such saved TikTok." });
    return result(400, { ok: false, intent, message: form.error.issues[0]?.message ?? "Unknown action." });
  }
  const input = form.data;
  try {
    if (input.intent === "add") {
      const saved = await tiktoks.add(user.id, { url: input.url, objectID: input.objectID, note: input.note });
      const message =
        saved.metaStatus === "fetched" ? "Saved." : "Saved. Its title and author are being fetched from TikTok.";
      return result(201, { ok: true, intent: input.intent, message });
    }
    if (input.intent === "remove") {
      await tiktoks.remove(user.id, input.id);
      return result(200, { ok: true, intent: input.intent, message: "Removed." });
    }
    await tiktoks.refetch(user.id, input.id);
    return result(202, { ok: true, intent: input.intent, message: "Fetching its title and author again." });
  } catch (error) {
    const failure = expectedFailure(error);
    return result(failure.status, {
      ok: false,
      intent: input.intent,
      message: failure.message,
      fieldErrors: (failure.details.fieldErrors as Record<string, string> | undefined) ?? {},
    });
  }
}
