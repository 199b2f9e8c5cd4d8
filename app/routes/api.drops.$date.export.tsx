// GET /api/drops/{date}/export?format=csv|json: a revealed drop's products with their reasons, as a file
// (decision 057). The drop's own rules apply: 403 before it is revealed, 404 for no drop that day.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportDownload } from "~/pages/research/export.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return exportDownload(request, { kind: "drop", date: params.date ?? "" });
}
