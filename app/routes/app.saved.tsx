// Saved inside Shopify admin: the same page, loader and action as /dashboard/saved, for the user the
// shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { loadSaved, savedAction } from "~/pages/research/research.server";
import { SavedPage } from "~/ui/research/saved-page";

export const meta: MetaFunction = () => [{ title: "Saved · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadSaved(user, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return savedAction(request, user);
}

export default function EmbeddedSaved() {
  return <SavedPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
