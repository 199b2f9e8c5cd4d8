// GET /api/v1/openapi.json: the public API's OpenAPI 3.1 document, generated from its zod schemas (decision 053).
// Public: it describes the API, it holds no data.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CORS_HEADERS } from "~/api/v1/handler.server";
import { openApiDocument } from "~/api/v1/openapi.server";

export function loader({ request }: LoaderFunctionArgs) {
  const server = new URL("/api/v1", request.url).toString();
  return Response.json(openApiDocument(server), { headers: { ...CORS_HEADERS, "Cache-Control": "public, max-age=300" } });
}
