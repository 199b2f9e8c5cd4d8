// Billing for both surfaces, composed from its two jobs (docs/decisions/009):
// - billing-events.server.ts applies Paddle's notifications (the only writer of subscription state);
// - billing-account.server.ts answers the user's reads and actions, and runs the local test checkout.
// Paddle is the real adapter when one is given, else the local stand-in (app/integrations/
// paddle-local.server.ts), built here from the constructor the composition root passes in and handed this
// billing's own webhook handler to deliver its signed notifications through: the local checkout exercises
// the production code path.
import type { PriceIds } from "~/domain/billing/billing";
import type { Db } from "~/db.server";
import type { PaddleNotificationReader, PaddlePort } from "~/integrations/paddle.server";
import type { LocalPaddle, LocalPaddleDeps } from "~/integrations/paddle-local.server";
import { createBillingAccount, storedSubscription } from "~/services/billing/account.server";
import { createBillingEvents } from "~/services/billing/events.server";

export type { PriceIds } from "~/domain/billing/billing";
export type { WebhookOutcome } from "~/services/billing/events.server";

export interface BillingDeps {
  db: Db;
  prices: PriceIds;
  webhookSecret: string;
  retentionDiscountId: string;
  /** Whether the local test checkout may be used (never with the real adapter). */
  localCheckout: boolean;
  /** Verifies and reads Paddle's notifications (the Paddle adapter's readPaddleNotification). */
  readNotification: PaddleNotificationReader;
  /** The real Paddle adapter, or the local stand-in's constructor (createLocalPaddle), used when there is no real one. */
  paddle: PaddlePort | { local: (deps: LocalPaddleDeps) => LocalPaddle };
}

export function createBilling(deps: BillingDeps) {
  const events = createBillingEvents(deps);
  const local =
    "local" in deps.paddle
      ? deps.paddle.local({
          prices: deps.prices,
          webhookSecret: deps.webhookSecret,
          deliver: events.handleWebhook,
          loadSubscription: (id) => storedSubscription(deps.db, id),
        })
      : null;
  const account = createBillingAccount({
    db: deps.db,
    prices: deps.prices,
    retentionDiscountId: deps.retentionDiscountId,
    paddle: local ?? (deps.paddle as PaddlePort),
    // The real adapter never offers the local checkout, whatever the flag says.
    localCheckout: deps.localCheckout ? local : null,
  });
  return { ...events, ...account };
}

export type Billing = ReturnType<typeof createBilling>;
