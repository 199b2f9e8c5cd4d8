// GET /api/v1/drops (public API, decision 053): Bearer key only, limits and CORS in app/api/v1/handler.server.ts;
// what it answers is the operation "listDrops" in app/api/v1/answers.server.ts (and the OpenAPI document).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { operation } from "~/api/v1/answers.server";
import { answerOperation } from "~/api/v1/handler.server";

const op = operation("listDrops");

export const loader = ({ request, params }: LoaderFunctionArgs) => answerOperation(op, request, params);
export const action = ({ request, params }: ActionFunctionArgs) => answerOperation(op, request, params);
