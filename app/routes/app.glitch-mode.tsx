// Glitch mode inside Shopify admin: the same ranked list, reveals and revealed glitches as
// /dashboard/glitch-mode (one page component, one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { glitchModePageAction, loadGlitchModePage } from "~/pages/glitch-mode/glitch-mode.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { GlitchModePage } from "~/ui/glitch-mode/glitch-mode-page";

export const meta: MetaFunction = () => [{ title: "Glitch mode · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadGlitchModePage(request, user);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return glitchModePageAction(request, user);
}

export default function EmbeddedGlitchMode() {
  return <GlitchModePage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
