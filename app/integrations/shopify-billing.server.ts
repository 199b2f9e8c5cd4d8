// Shopify's Billing API (Admin GraphQL, the version the app pins): the calls that put our plans and
// credit top-ups on a merchant's Shopify invoice (docs/decisions/034). userErrors come back as data:
// the service decides what a refusal means to the merchant.
// https://shopify.dev/docs/apps/launch/billing/subscription-billing
import type { ShopifyAdmin } from "~/integrations/shopify-admin.server";

export interface BillingUserError {
  field: string[] | null;
  message: string;
}

/** An AppSubscription as these queries select it. */
export interface ShopifyAppSubscription {
  id: string;
  name: string;
  status: string;
  createdAt: string;
  currentPeriodEnd: string | null;
  trialDays: number;
  test: boolean;
  lineItems: {
    plan: { pricingDetails: { price?: { amount: string; currencyCode: string }; interval?: string } };
  }[];
}

const SUBSCRIPTION_FIELDS = `
  id
  name
  status
  createdAt
  currentPeriodEnd
  trialDays
  test
  lineItems {
    plan {
      pricingDetails {
        ... on AppRecurringPricing {
          price { amount currencyCode }
          interval
        }
      }
    }
  }`;

export const APP_SUBSCRIPTION_CREATE = `#graphql
mutation AppSubscriptionCreate($name: String!, $lineItems: [AppSubscriptionLineItemInput!]!, $returnUrl: URL!, $test: Boolean, $trialDays: Int, $replacementBehavior: AppSubscriptionReplacementBehavior) {
  appSubscriptionCreate(name: $name, lineItems: $lineItems, returnUrl: $returnUrl, test: $test, trialDays: $trialDays, replacementBehavior: $replacementBehavior) {
    appSubscription { ${SUBSCRIPTION_FIELDS} }
    confirmationUrl
    userErrors { field message }
  }
}`;

export const APP_SUBSCRIPTION_CANCEL = `#graphql
mutation AppSubscriptionCancel($id: ID!, $prorate: Boolean) {
  appSubscriptionCancel(id: $id, prorate: $prorate) {
    appSubscription { ${SUBSCRIPTION_FIELDS} }
    userErrors { field message }
  }
}`;

export const APP_SUBSCRIPTION_TRIAL_EXTEND = `#graphql
mutation AppSubscriptionTrialExtend($id: ID!, $days: Int!) {
  appSubscriptionTrialExtend(id: $id, days: $days) {
    appSubscription { ${SUBSCRIPTION_FIELDS} }
    userErrors { field message code }
  }
}`;

export const APP_PURCHASE_ONE_TIME_CREATE = `#graphql
mutation AppPurchaseOneTimeCreate($name: String!, $price: MoneyInput!, $returnUrl: URL!, $test: Boolean) {
  appPurchaseOneTimeCreate(name: $name, price: $price, returnUrl: $returnUrl, test: $test) {
    appPurchaseOneTime { id name status createdAt test }
    confirmationUrl
    userErrors { field message }
  }
}`;

export const CURRENT_APP_INSTALLATION = `#graphql
query CurrentAppInstallation {
  currentAppInstallation {
    activeSubscriptions { ${SUBSCRIPTION_FIELDS} }
    oneTimePurchases(first: 25, reverse: true) {
      nodes { id name status createdAt test }
    }
  }
}`;

export interface OneTimePurchase {
  id: string;
  name: string;
  status: string;
  createdAt: string;
  test: boolean;
}

export async function appSubscriptionCreate(
  admin: ShopifyAdmin,
  input: {
    name: string;
    priceAmount: string;
    currencyCode: string;
    returnUrl: string;
    test: boolean;
    trialDays: number;
    replacementBehavior: "APPLY_IMMEDIATELY" | "APPLY_ON_NEXT_BILLING_CYCLE" | "STANDARD";
  },
) {
  const { data } = await admin.graphql<{
    appSubscriptionCreate: {
      appSubscription: ShopifyAppSubscription | null;
      confirmationUrl: string | null;
      userErrors: BillingUserError[];
    };
  }>(APP_SUBSCRIPTION_CREATE, {
    name: input.name,
    returnUrl: input.returnUrl,
    test: input.test,
    trialDays: input.trialDays,
    replacementBehavior: input.replacementBehavior,
    lineItems: [
      {
        plan: {
          appRecurringPricingDetails: {
            price: { amount: input.priceAmount, currencyCode: input.currencyCode },
            interval: "EVERY_30_DAYS",
          },
        },
      },
    ],
  });
  return data.appSubscriptionCreate;
}

export async function appSubscriptionCancel(admin: ShopifyAdmin, id: string) {
  const { data } = await admin.graphql<{
    appSubscriptionCancel: { appSubscription: ShopifyAppSubscription | null; userErrors: BillingUserError[] };
  }>(APP_SUBSCRIPTION_CANCEL, { id, prorate: false });
  return data.appSubscriptionCancel;
}

export async function appSubscriptionTrialExtend(admin: ShopifyAdmin, id: string, days: number) {
  const { data } = await admin.graphql<{
    appSubscriptionTrialExtend: { appSubscription: ShopifyAppSubscription | null; userErrors: BillingUserError[] };
  }>(APP_SUBSCRIPTION_TRIAL_EXTEND, { id, days });
  return data.appSubscriptionTrialExtend;
}

export async function appPurchaseOneTimeCreate(
  admin: ShopifyAdmin,
  input: { name: string; priceAmount: string; currencyCode: string; returnUrl: string; test: boolean },
) {
  const { data } = await admin.graphql<{
    appPurchaseOneTimeCreate: {
      appPurchaseOneTime: OneTimePurchase | null;
      confirmationUrl: string | null;
      userErrors: BillingUserError[];
    };
  }>(APP_PURCHASE_ONE_TIME_CREATE, {
    name: input.name,
    price: { amount: input.priceAmount, currencyCode: input.currencyCode },
    returnUrl: input.returnUrl,
    test: input.test,
  });
  return data.appPurchaseOneTimeCreate;
}

export async function currentAppInstallation(admin: ShopifyAdmin) {
  const { data } = await admin.graphql<{
    currentAppInstallation: {
      activeSubscriptions: ShopifyAppSubscription[];
      oneTimePurchases: { nodes: OneTimePurchase[] };
    };
  }>(CURRENT_APP_INSTALLATION);
  return data.currentAppInstallation;
}

/** Shopify's Billing calls as one port: the composition root hands it to the Shopify billing service. */
export const shopifyBillingApi = {
  appSubscriptionCreate,
  appSubscriptionCancel,
  appSubscriptionTrialExtend,
  appPurchaseOneTimeCreate,
  currentAppInstallation,
};

export type ShopifyBillingApi = typeof shopifyBillingApi;
