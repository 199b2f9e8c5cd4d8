// /docs/api: the public API's reference, rendered from its OpenAPI document (decision 053). Public.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { openApiDocument } from "~/api/v1/openapi.server";
import { ApiReference, type OpenApiDoc } from "~/ui/api/api-reference";

export const meta: MetaFunction = () => [{ title: "API reference · Winning Products" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { doc: openApiDocument(new URL("/api/v1", request.url).toString()) as unknown as OpenApiDoc };
}

export default function Route() {
  const { doc } = useLoaderData<typeof loader>();
  return <ApiReference doc={doc as OpenApiDoc} keysUrl="/dashboard/account#api-keys-title" />;
}
