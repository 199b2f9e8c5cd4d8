// Brand kits inside Shopify admin: the same page, loader and action as /dashboard/brand-kits, for the user the
// shop is linked to. Its logo links are signed (the admin's iframe sends no site cookie; docs/decisions/033).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { brandKitsPageAction, loadBrandKitsPage } from "~/pages/ai-ads/brand-kits.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { BrandKitsPage } from "~/ui/ai-ads/brand-kits-page";

export const meta: MetaFunction = () => [{ title: "Brand kits · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadBrandKitsPage(user, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return brandKitsPageAction(request, user);
}

export default function EmbeddedBrandKits() {
  return <BrandKitsPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
