// GET /api/saved/export?format=csv|json: the seller's saved products as a file, with landed cost (decision 057).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportDownload } from "~/pages/research/export.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return exportDownload(request, { kind: "saved" });
}
