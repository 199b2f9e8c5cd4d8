// GET /api/products/export?format=csv|json&<the grid's parameters>: the grid's results as a file, every page of
// them, streamed, with the landed-cost parts per row (decision 057). 400 naming a bad parameter.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportDownload, gridSearchParams } from "~/pages/research/export.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return exportDownload(request, (url) => ({ kind: "search", params: gridSearchParams(url) }));
}
