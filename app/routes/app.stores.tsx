// Stores & themes inside Shopify admin: the same page as /dashboard/stores, for the linked account.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { stores, themeTokens } from "~/services/index.server";
import { StoresAndThemesPage } from "~/ui/shopify/stores-page";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  const [storeList, tokens] = await Promise.all([stores.listStores(user.id), themeTokens.listThemeTokens(user.id)]);
  return { ...storeList, themeTokens: tokens };
}

export default function EmbeddedStores() {
  return <StoresAndThemesPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
