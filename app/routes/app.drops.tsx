// Weekly product drops inside Shopify admin: the same countdown, drops, reveals and products as
// /dashboard/drops (one page component, one loader and action), for the user the shop is linked to.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireEmbeddedUser } from "~/pages/http/embedded-session.server";
import { dropsPageAction, loadDropsPage } from "~/pages/research/drops.server";
import { ProductDropsPage } from "~/ui/research/product-drops-page";

export const meta: MetaFunction = () => [{ title: "Product drops · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return loadDropsPage(request, user, "embedded");
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireEmbeddedUser(request);
  return dropsPageAction(request, user);
}

export default function EmbeddedDrops() {
  return <ProductDropsPage data={useLoaderData<typeof loader>()} surface="embedded" />;
}
