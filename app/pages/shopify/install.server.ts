// The install path from the site to Shopify (docs/decisions/029), for the Stores page (/dashboard/stores)
// and the product page editor's push panel: what the seller is offered (an "Install on Shopify" button
// with the configured link, a "Your store's address" form, or a plain sentence that connecting a store is
// not set up on this server), and the form's action, which sends the seller to Shopify's install page for
// our app or answers 400 with a sentence. Why the path is missing goes to the log, never to the seller.
import { data, redirect } from "@remix-run/node";
import { z } from "zod";
import { normaliseShopDomain, shopifyInstallUrl } from "~/domain/shopify/install";
import { shopifyInstallSetup, type ShopifyInstallSetup } from "~/env.server";
import { childLogger } from "~/logger.server";
import { readForm } from "~/pages/http/http.server";

const log = childLogger("shopify-install");

/** What the page shows; the same shape on every page that offers the install path. */
export type ShopifyInstallView =
  | { available: false; message: string }
  | { available: true; installUrl: string | null };

export const NOT_SET_UP_MESSAGE =
  "Connecting a Shopify store is not set up on this server yet. The team that runs this Winning Products site can turn it on; until then you can use everything else here.";

let explained = false;

/** The install path as the page offers it. Logs once per process why it is missing, for the operator. */
export function shopifyInstallView(setup: ShopifyInstallSetup = shopifyInstallSetup()): ShopifyInstallView {
  if (!setup.available) {
    if (!explained) {
      explained = true;
      log.info(
        { reason: setup.reason },
        setup.reason === "app-off"
          ? "the site's install path to Shopify is hidden: SHOPIFY_APP=off (set SHOPIFY_API_KEY and SHOPIFY_API_SECRET to turn the Shopify app on)"
          : "the site's install path to Shopify is hidden: SHOPIFY_API_KEY is not set (only the local placeholder client id)",
      );
    }
    return { available: false, message: NOT_SET_UP_MESSAGE };
  }
  return { available: true, installUrl: setup.installUrl };
}

/** What the address form gets back when it cannot go on. */
export interface ShopifyInstallFormResult {
  installError: string;
  shop: string;
}

const InstallForm = z.object({ shop: z.string().max(1000).optional() });

/**
 * The "Your store's address" form (intent=install-shopify): a valid address redirects (303) to Shopify's
 * install page for our app; anything else answers 400 with a sentence and the text as typed; with the
 * app not set up, 409 with the same sentence the page shows.
 */
export async function shopifyInstallAction(
  request: Request,
  setup: ShopifyInstallSetup = shopifyInstallSetup(),
) {
  const form = InstallForm.safeParse(Object.fromEntries(await readForm(request)));
  const typed = form.success ? (form.data.shop ?? "") : "";
  if (!setup.available) {
    shopifyInstallView(setup);
    return data<ShopifyInstallFormResult>({ installError: NOT_SET_UP_MESSAGE, shop: typed.slice(0, 255) }, { status: 409 });
  }
  const shop = normaliseShopDomain(form.success ? typed : "");
  if (!shop.ok) return data<ShopifyInstallFormResult>({ installError: shop.error, shop: typed.slice(0, 255) }, { status: 400 });
  log.info({ shop: shop.shop }, "sending a site user to Shopify to install the app");
  return redirect(shopifyInstallUrl(shop.shop, setup.clientId), 303);
}
