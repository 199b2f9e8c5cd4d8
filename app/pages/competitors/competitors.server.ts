// The competitor tracking pages' loaders and action, shared by the site (/dashboard/competitors,
// /dashboard/competitors/{id}) and the embedded app (/app/competitors, /app/competitors/{id}). Each surface's
// route authenticates its own way and hands the user over. The rules are the competitors service's
// (docs/decisions/023, 024); the JSON API (/api/competitors*) answers the same from the same service.
import { data } from "@remix-run/node";
import { z } from "zod";
import { AppError } from "~/domain/errors";
import type { Surface } from "~/domain/shopify/embedded-paths";
import { researchAccess } from "~/domain/products/research-access";
import { exportLinks } from "~/pages/research/export.server";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import type { JobId } from "~/services/jobs.server";
import { storePendingSentence } from "~/domain/catalogue/pending-sentence";
import { CHECK_JOB, checkJobKey } from "~/domain/competitors/competitors";
import { catalogue, competitors, jobs } from "~/services/index.server";

const notFollowed = () => Response.json({ error: "You do not follow that store." }, { status: 404 });

/** The follow id of a store page's path: a positive whole number, else 404. */
export function competitorPageId(value: string | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value) || Number(value) < 1) throw notFollowed();
  return Number(value);
}

/** The list page: the user's followed stores and what they may do (locked without a paid state). */
export async function loadCompetitorsPage(user: User) {
  const [access, { items }, estimates] = await Promise.all([
    competitors.access(user),
    competitors.list(user.id),
    competitors.estimates(user.id),
  ]);
  return { access, items, estimates, now: new Date().toISOString() };
}

/** A read the user asked for, as the store page shows it while it runs. */
export type CheckState = "queued" | "running" | "done" | "failed";

/**
 * The store page. ?check={jobId} (set by "Check now") says which read to follow: its state is reported while
 * it is queued or running, only when that job is this store's read.
 */
export async function loadCompetitorStorePage(request: Request, user: User, idParam: string | undefined, surface: Surface = "site") {
  const id = competitorPageId(idParam);
  let detail;
  try {
    detail = await competitors.get(user.id, id);
  } catch (error) {
    const failure = expectedFailure(error);
    throw Response.json({ error: failure.message }, { status: failure.status });
  }
  const access = await competitors.access(user);
  const jobParam = new URL(request.url).searchParams.get("check");
  let check: CheckState | null = null;
  // A job id: digits on our own queue (SQLite), a UUID on pg-boss (PostgreSQL); anything else is ignored.
  if (jobParam && (/^\d{1,12}$/.test(jobParam) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(jobParam))) {
    const job = await jobs.get(/^\d+$/.test(jobParam) ? Number(jobParam) : jobParam);
    // Only a store read's state is told (queued, running, finished): nothing else of the job.
    const storeId = storeIdOf(job?.payload);
    if (job && storeId !== null && job.key === checkJobKey(storeId) && job.kind === CHECK_JOB) {
      check =
        job.status === "queued"
          ? "queued"
          : job.status === "running"
            ? "running"
            : job.status === "done"
              ? "done"
              : "failed";
    }
  }
  // The store's catalogue as a file (decision 057).
  const exports = researchAccess(user).insights ? exportLinks(surface, user.id, `/api/competitors/${id}/export`) : null;
  const now = new Date();
  // Its listings placed without pictures, and pictures pending: how many, why and when (issue 37, decision 091).
  const picturesPending = storePendingSentence(await catalogue.pending({ follow: { userId: user.id, id } }), now);
  return { detail, access, check, now: now.toISOString(), exportLinks: exports, picturesPending };
}

function storeIdOf(payload: string | undefined): number | null {
  if (!payload) return null;
  try {
    const parsed = z.object({ storeId: z.number().int().positive() }).safeParse(JSON.parse(payload));
    return parsed.success ? parsed.data.storeId : null;
  } catch {
    return null;
  }
}

/** What every form of the two pages gets back. */
export interface CompetitorActionResult {
  ok: boolean;
  intent: string;
  message: string;
  /** 402 over the cap / 403 locked: where to upgrade. */
  upgradeUrl: string | null;
  /** "add": the new follow's id; "check": the queued read's job id. */
  id: number | null;
  jobId: JobId | null;
  /** "import": the product's id in our database. */
  objectID: string | null;
  productId: string | null;
}

const Intent = z.enum(["add", "rename", "remove", "check", "follow", "unfollow", "import"], {
  error: "Unknown action.",
});
const Id = z.coerce.number({ error: "is not a store of yours" }).int().positive().max(999_999_999);
const ProductId = z.string().regex(/^\d{1,30}$/, "is not a product of this store");

const Forms = {
  add: z.object({ url: z.string().max(2000, "is too long to be a store's address") }),
  rename: z.object({ id: Id, name: z.string().max(1000, "is too long") }),
  remove: z.object({ id: Id }),
  check: z.object({ id: Id }),
  follow: z.object({ id: Id, productId: ProductId }),
  unfollow: z.object({ id: Id, productId: ProductId }),
  import: z.object({ id: Id, productId: ProductId }),
} as const;

function answer(
  status: number,
  body: Partial<CompetitorActionResult> & { ok: boolean; intent: string; message: string },
) {
  return data<CompetitorActionResult>(
    { upgradeUrl: null, id: null, jobId: null, objectID: null, productId: null, ...body },
    { status },
  );
}

/** Every change the two pages make: add, rename, remove, check now, follow/unfollow a product, import it. */
export async function competitorsPageAction(request: Request, user: User) {
  const fields = Object.fromEntries(await readForm(request));
  const intent = Intent.safeParse(fields.intent);
  if (!intent.success)
    return answer(400, { ok: false, intent: String(fields.intent ?? ""), message: "Unknown action." });
  const name = intent.data;
  const parsed = Forms[name].safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "form");
    return answer(400, {
      ok: false,
      intent: name,
      message: `The ${field === "url" ? "address" : field} ${issue?.message ?? "is not valid"}.`,
    });
  }
  const form = parsed.data as Record<string, string | number>;
  const id = form.id as number;
  const productId = form.productId as string;
  try {
    switch (name) {
      case "add": {
        const store = await competitors.add(user, String(form.url));
        return answer(201, {
          ok: true,
          intent: name,
          id: store.id,
          message: `You now follow ${store.domain}. Its first read is on its way.`,
        });
      }
      case "rename": {
        const store = await competitors.rename(user.id, id, String(form.name));
        return answer(200, { ok: true, intent: name, id, message: `Renamed to ${store.name}.` });
      }
      case "remove":
        await competitors.remove(user.id, id);
        return answer(200, { ok: true, intent: name, id, message: "You no longer follow that store." });
      case "check": {
        const queued = await competitors.checkNow(user, id);
        return answer(202, {
          ok: true,
          intent: name,
          id,
          jobId: queued.jobId,
          message: "The store will be read in a moment.",
        });
      }
      case "follow":
        await competitors.followProduct(user, id, productId);
        return answer(200, {
          ok: true,
          intent: name,
          id,
          productId,
          message: "You will be told when its price drops.",
        });
      case "unfollow":
        await competitors.unfollowProduct(user.id, id, productId);
        return answer(200, {
          ok: true,
          intent: name,
          id,
          productId,
          message: "No more price alerts for this product.",
        });
      case "import": {
        const { objectID } = await competitors.importProduct(user, id, productId);
        return answer(201, {
          ok: true,
          intent: name,
          id,
          productId,
          objectID,
          message: "Added to the product database.",
        });
      }
    }
  } catch (error) {
    const failure = expectedFailure(error);
    return answer(failure.status, {
      ok: false,
      intent: name,
      id: typeof id === "number" ? id : null,
      productId: productId ?? null,
      message: failure.message,
      upgradeUrl: upgradeUrlOf(failure),
    });
  }
}

function upgradeUrlOf(failure: AppError): string | null {
  const url = failure.details.upgradeUrl;
  return (failure.status === 402 || failure.status === 403) && typeof url === "string" ? url : null;
}
