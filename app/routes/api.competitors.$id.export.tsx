// GET /api/competitors/{id}/export?format=csv|json: a followed store's current catalogue as a file (decision 057).
// 404 for a store the seller does not follow.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportDownload } from "~/pages/research/export.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = /^\d{1,9}$/.test(params.id ?? "") ? Number(params.id) : 0;
  return exportDownload(request, { kind: "competitor", id });
}
