// Where a hand-off link from the embedded app may land on the site, and for how long it works
// (docs/decisions/016). The browser names a destination; the server turns it into a path, so a link
// can never be made to send someone to an arbitrary URL.
import { z } from "zod";
import { isValidPlanChoice } from "~/domain/billing/plans";

/** A link works for this long after the embedded app created it, and once. */
export const HANDOFF_TTL_MINUTES = 5;

export const HandoffDestinationSchema = z.discriminatedUnion("to", [
  /** Paddle's checkout for a plan (/pay). */
  z
    .object({ to: z.literal("checkout"), plan: z.string(), billing: z.string() })
    .refine((d) => isValidPlanChoice(d.plan, d.billing), { message: "not one of the plans", path: ["plan"] }),
  /** The site's Billing & credits page, where Paddle's overlay can change the card. */
  z.object({ to: z.literal("billing") }),
  /** Connecting a Discord account (an OAuth round trip that needs the site's cookies). */
  z.object({ to: z.literal("discord") }),
  /** The site's product pages editor. */
  z.object({ to: z.literal("product-pages") }),
]);
export type HandoffDestination = z.infer<typeof HandoffDestinationSchema>;

/** The site path a destination lands on. */
export function handoffTarget(destination: HandoffDestination): string {
  switch (destination.to) {
    case "checkout":
      return `/pay?${new URLSearchParams({ plan: destination.plan, billing: destination.billing })}`;
    case "billing":
      return "/dashboard/billing";
    case "discord":
      return "/auth/discord";
    case "product-pages":
      return "/dashboard/product-pages";
  }
}

export type HandoffRefusal = "invalid" | "expired" | "used" | "unlinked";

/** What the landing page says when a link does not work, and its status (400: not ours; 401: no longer valid). */
export const HANDOFF_REFUSALS: Record<HandoffRefusal, { status: 400 | 401; title: string; message: string }> = {
  invalid: {
    status: 400,
    title: "This sign-in link is not valid",
    message:
      "The link is incomplete or was changed. Go back to Winning Products in your Shopify admin and click the button again for a new link.",
  },
  expired: {
    status: 401,
    title: "This sign-in link has expired",
    message: `Links from the Shopify app work for ${HANDOFF_TTL_MINUTES} minutes. Go back to Winning Products in your Shopify admin and click the button again.`,
  },
  used: {
    status: 401,
    title: "This sign-in link was already used",
    message:
      "Each link from the Shopify app works once. If this tab is not signed in, go back to Winning Products in your Shopify admin and click the button again.",
  },
  unlinked: {
    status: 401,
    title: "This store is no longer linked to the account",
    message:
      "The store that created this link was unlinked from its Winning Products account. Open the app in your Shopify admin to link it again, or log in on the website.",
  },
};

/** Why a shop's request is refused (401) while the shop is not linked to a site account. */
export const UNLINKED = (shop: string) =>
  `The store ${shop} is not linked to a Winning Products account yet. Open Winning Products in your Shopify admin and sign in to link the store.`;
