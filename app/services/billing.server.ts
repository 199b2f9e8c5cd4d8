// Billing for both surfaces, composed from its two jobs (docs/decisions/009):
// - billing-events.server.ts applies Paddle's notifications (the only writer of subscription state);
// - billing-account.server.ts answers the user's reads and actions, and runs the local test checkout.
// Paddle is the real adapter when one is given, else the local stand-in (app/integrations/
// paddle-local.server.ts), which is handed this billing's own webhook handler to deliver its signed
// notifications through: the local checkout exercises the production code path.
import type { PriceIds } from "~/domain/billing";
import type { Db } from "~/db.server";
import type { PaddlePort } from "~/integrations/paddle.server";
import { createLocalPaddle } from "~/integrations/paddle-local.server";
import { createBillingAccount, storedSubscription } from "~/services/billing-account.server";
import { createBillingEvents } from "~/services/billing-events.server";

export type { PriceIds } from "~/domain/billing";
export type { WebhookOutcome } from "~/services/billing-events.server";

export interface BillingDeps {
  db: Db;
  prices: PriceIds;
  webhookSecret: string;
  retentionDiscountId: string;
  /** Whether the local test checkout may be used (never with the real adapter). */
  localCheckout: boolean;
  /** The real Paddle adapter; without one, the local stand-in. */
  paddle?: PaddlePort;
}

export function createBilling(deps: BillingDeps) {
  const events = createBillingEvents(deps);
  const local = deps.paddle
    ? null
    : createLocalPaddle({
        prices: deps.prices,
        webhookSecret: deps.webhookSecret,
        deliver: events.handleWebhook,
        loadSubscription: (id) => storedSubscription(deps.db, id),
      });
  const account = createBillingAccount({
    db: deps.db,
    prices: deps.prices,
    retentionDiscountId: deps.retentionDiscountId,
    paddle: local ?? deps.paddle!,
    // The real adapter never offers the local checkout, whatever the flag says.
    localCheckout: deps.localCheckout ? local : null,
  });
  return { ...events, ...account };
}

export type Billing = ReturnType<typeof createBilling>;
