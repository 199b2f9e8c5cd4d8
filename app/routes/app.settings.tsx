// Settings inside Shopify admin: the linked site account and its plan, this shop's link, the Zendrop
// flag and the community (Discord), for the user the shop is linked to. Unlinking and Zendrop use the
// same JSON API as Stores & themes; disconnecting Discord posts here.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { settingsAction, settingsLoader } from "~/pages/accounts/settings.server";
import { EmbeddedSettingsPage } from "~/ui/accounts/embedded-settings";

export const meta: MetaFunction = () => [{ title: "Settings · Winning Products" }];

export const loader = (args: LoaderFunctionArgs) => settingsLoader(args);
export const action = (args: ActionFunctionArgs) => settingsAction(args);

export default function EmbeddedSettings() {
  const result = useActionData<typeof action>();
  return <EmbeddedSettingsPage data={useLoaderData<typeof loader>()} notice={result?.notice ?? null} />;
}
