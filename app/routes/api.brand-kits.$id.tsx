// GET /api/brand-kits/{id} -> the kit; PATCH (JSON with any of the kit's fields, or multipart/form-data with
// them, a `logo` file to replace the logo and removeLogo=true to take it away) -> the kit, 422 naming the
// fields; DELETE -> { deleted: true } (its logo too; the newest other kit becomes the default). Another
// user's kit: 404.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseKitId, readKitUpload } from "~/pages/ai-ads/brand-kits.server";
import { handleServiceErrors, methodNotAllowed } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import { brandKits } from "~/services/index.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseKitId(params.id);
  return Response.json(await handleServiceErrors(() => brandKits.get(user.id, id)));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireApiUser(request);
  const id = parseKitId(params.id);
  if (request.method === "PATCH") {
    const { fields, logo } = await readKitUpload(request);
    return Response.json(await handleServiceErrors(() => brandKits.update(user.id, id, fields, logo)));
  }
  if (request.method === "DELETE") return Response.json(await handleServiceErrors(() => brandKits.remove(user.id, id)));
  return methodNotAllowed("GET, PATCH, DELETE");
}
