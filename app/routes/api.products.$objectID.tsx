// GET /api/products/{objectID}: one product with its history (insights only for paid access).
// POST with intent save | unsave | track | untrack (JSON body { intent }), idempotent.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { researchAccess } from "~/domain/products/research-access";
import { requireApiUser } from "~/pages/http/site-session.server";
import { products } from "~/services/index.server";
import { handleServiceErrors, readJson } from "~/pages/http/http.server";

const ObjectID = z.string().min(1).max(120);

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  return Response.json(
    await handleServiceErrors(() => products.getProduct({ userId: user.id, objectID: objectID.data, access: researchAccess(user) })),
  );
}

const Body = z.object({ intent: z.enum(["save", "unsave", "track", "untrack"], { error: "must be save, unsave, track or untrack" }) });

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  const { intent } = await readJson(request, Body);
  const fn = {
    save: products.saveProduct,
    unsave: products.unsaveProduct,
    track: products.trackProduct,
    untrack: products.untrackProduct,
  }[intent];
  return Response.json(await handleServiceErrors<object>(() => fn(user.id, objectID.data)));
}
