// Stores & themes on the site: the user's linked Shopify stores and theme tokens, and the install path to
// Shopify (the "Your store's address" form posts here: app/pages/shopify/install.server.ts).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { shopifyInstallAction, shopifyInstallView } from "~/pages/shopify/install.server";
import { requireUser } from "~/pages/http/site-session.server";
import { stores, themeTokens } from "~/services/index.server";
import { StoresAndThemesPage } from "~/ui/shopify/stores-page";

export const meta: MetaFunction = () => [{ title: "Stores & themes · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [storeList, tokens] = await Promise.all([stores.listStores(user.id), themeTokens.listThemeTokens(user.id)]);
  return { ...storeList, themeTokens: tokens, install: shopifyInstallView() };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return shopifyInstallAction(request);
}

export default function DashboardStores() {
  return <StoresAndThemesPage data={useLoaderData<typeof loader>()} surface="site" />;
}
