// GET /api/product-pages/{id} -> the page; PATCH with any of title, descriptionMarkdown (or, from older
// clients, descriptionHtml: sanitised and converted to Markdown; not both), bullets,
// seoTitle, seoDescription, priceCents, compareAtPriceCents (integer cents; null clears compare-at)
// -> the edited page, or 422 { fieldErrors }; DELETE -> { deleted: true }. Another user's page: 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productPages } from "~/services/index.server";

const Id = z.coerce.number().int().positive().max(2_147_483_647);

function pageId(raw: string | undefined): number {
  const id = Id.safeParse(raw);
  if (!id.success) throw Response.json({ error: "No such product page." }, { status: 404 });
  return id.data;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = pageId(params.id);
  return Response.json(await handleServiceErrors(() => productPages.get(user.id, id)));
}

const cents = z.number({ error: "must be a whole number of cents" }).int("must be a whole number of cents");

const Patch = z
  .object({
    title: z.string().max(1000),
    descriptionMarkdown: z.string().max(100_000),
    descriptionHtml: z.string().max(100_000),
    bullets: z.array(z.string().max(1000)).max(50),
    seoTitle: z.string().max(1000),
    seoDescription: z.string().max(1000),
    priceCents: cents,
    compareAtPriceCents: cents.nullable(),
  })
  .partial()
  .strict();

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const id = pageId(params.id);
  if (request.method === "PATCH") {
    const patch = await readJson(request, Patch);
    return Response.json(await handleServiceErrors(() => productPages.update(user.id, id, patch)));
  }
  if (request.method === "DELETE") {
    return Response.json(await handleServiceErrors(() => productPages.remove(user.id, id)));
  }
  return Response.json(
    { error: "Use GET, PATCH or DELETE." },
    { status: 405, headers: { Allow: "GET, PATCH, DELETE" } },
  );
}
