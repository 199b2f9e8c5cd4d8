// /dashboard/glitch-mode: products that sell on Amazon for far more than they cost, ranked by the
// spread, with reveals for a glitch-mode credit and the user's revealed glitches. The page
// (app/ui/glitch-mode/glitch-mode-page.tsx) and its loader and action (app/pages/glitch-mode/glitch-mode.server.ts) are
// the same as in Shopify admin (/app/glitch-mode).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { glitchModePageAction, loadGlitchModePage } from "~/pages/glitch-mode/glitch-mode.server";
import { requireUser } from "~/pages/http/site-session.server";
import { GlitchModePage } from "~/ui/glitch-mode/glitch-mode-page";

export const meta: MetaFunction = () => [{ title: "Glitch mode · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadGlitchModePage(request, await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return glitchModePageAction(request, await requireUser(request));
}

export default function DashboardGlitchMode() {
  return <GlitchModePage data={useLoaderData<typeof loader>()} surface="site" />;
}
