// TikToks inside Shopify admin: the same page, loader and action as /dashboard/tiktoks, for the user the
// shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { loadTikToksPage, tiktoksPageAction } from "~/pages/ai-ads/tiktoks.server";
import { TikToksPage } from "~/ui/ai-ads/tiktoks-page";

export const meta: MetaFunction = () => [{ title: "TikToks · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadTikToksPage(user, request);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return tiktoksPageAction(request, user);
}

export default function EmbeddedTikToks() {
  return <TikToksPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
