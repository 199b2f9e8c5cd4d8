// GET /api/products/{objectID}: one product with its history (insights only for paid access).
// POST with intent save | unsave | track | untrack (JSON body { intent }), idempotent.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { researchAccess } from "~/domain/research-access";
import { auth, products } from "~/services/index.server";
import { readJson } from "~/pages/http.server";
import { ProductNotFoundError } from "~/services/products.server";

const ObjectID = z.string().min(1).max(120);

function notFound(error: unknown): Response {
  if (error instanceof ProductNotFoundError) return Response.json({ error: error.message }, { status: 404 });
  throw error;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await auth.requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  try {
    return Response.json(await products.getProduct({ userId: user.id, objectID: objectID.data, access: researchAccess(user) }));
  } catch (error) {
    return notFound(error);
  }
}

const Body = z.object({ intent: z.enum(["save", "unsave", "track", "untrack"], { error: "must be save, unsave, track or untrack" }) });

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await auth.requireApiUser(request);
  const objectID = ObjectID.safeParse(params.objectID);
  if (!objectID.success) return Response.json({ error: "objectID is not valid" }, { status: 400 });
  const { intent } = await readJson(request, Body);
  try {
    const fn = {
      save: products.saveProduct,
      unsave: products.unsaveProduct,
      track: products.trackProduct,
      untrack: products.untrackProduct,
    }[intent];
    return Response.json(await fn(user.id, objectID.data));
  } catch (error) {
    return notFound(error);
  }
}
