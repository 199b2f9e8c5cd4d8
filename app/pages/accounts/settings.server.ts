// Settings inside Shopify admin (the page controller): the linked site account and its plan, this shop's
// link, the Zendrop flag and the community (Discord), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { apiKeysSection } from "~/pages/accounts/api-keys.server";
import { readForm } from "~/pages/http/http.server";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { billing, community, stores } from "~/services/index.server";
import { planStatusInput } from "~/domain/billing/billing";

export async function settingsLoader({ request }: LoaderFunctionArgs) {
  const { session, user } = await requireEmbeddedUser(request);
  const [storeList, overview, communityOverview, apiKeys] = await Promise.all([
    stores.listStores(user.id),
    billing.overview(user),
    community.overview(user),
    apiKeysSection(user),
  ]);
  const thisStore = storeList.stores.find((s) => !s.legacy && s.shop === session.shop);
  return {
    shop: session.shop,
    account: { email: user.email, memberSince: user.createdAt.toISOString().slice(0, 10), ...planStatusInput(user) },
    subscription: overview.subscription,
    store: thisStore ? { linkedAt: thisStore.linkedAt } : null,
    otherStores: storeList.stores.filter((s) => s.connected && s !== thisStore).length,
    zendropConnected: storeList.zendropConnected,
    apiKeys,
    // The prompt schedule is the site dashboard's; Settings shows the state and the links.
    community: {
      inviteUrl: communityOverview.inviteUrl,
      notConfiguredMessage: communityOverview.notConfiguredMessage,
      joined: communityOverview.joined,
      discordUserName: communityOverview.discordUserName,
      oauthEnabled: communityOverview.oauthEnabled,
    },
  };
}

export async function settingsAction({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  const form = await readForm(request);
  if (form.get("intent") !== "disconnect-discord")
    return data({ notice: null, error: "Unknown action." }, { status: 400 });
  await community.disconnect(user.id);
  return { notice: "Your Discord account is no longer connected.", error: null };
}

export type SettingsLoaderData = Awaited<ReturnType<typeof settingsLoader>>;
