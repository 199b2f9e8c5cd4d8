// GET /api/product-pages -> { pages, stores, writer }: the signed-in user's product pages (newest
// first), their connected stores and who writes the copy ("built-in writer" or the AI model).
// POST /api/product-pages { objectID } -> 201 the new draft page (1 product-pages credit; 402 with
// { upsell: true } when short).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { productPages } from "~/services/index.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const [pages, stores] = await Promise.all([productPages.list(user.id), productPages.listStores(user.id)]);
  return Response.json({ pages, stores, writer: productPages.writer });
}

const Body = z.object({ objectID: z.string().trim().min(1).max(120) });

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST")
    return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "GET, POST" } });
  const user = await requireApiUser(request);
  const { objectID } = await readJson(request, Body);
  const page = await handleServiceErrors(() => productPages.generate({ userId: user.id, objectID }));
  return Response.json(page, { status: 201 });
}
