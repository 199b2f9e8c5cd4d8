// The profit calculator of a product page: the seller's own price, cost, shipping, fees and ad cost per
// purchase -> fees, profit per order, margin and break-even ROAS. The arithmetic is profit() from
// app/domain/products/insights.ts, in integer cents; this component only parses what was typed.
import { Badge, BlockStack, Box, Card, DescriptionList, InlineGrid, InlineStack, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { profit, PROFIT_NOTES, type ProfitResult } from "~/domain/products/insights";
import { dutyOnValue, reservesOf } from "~/domain/landed-cost/landed-cost";
import { currencyInWords, priceInDollars } from "~/domain/catalogue/measured-product";
import { LandedCostBreakdown, type LandedCostData } from "~/ui/landed-cost/landed-cost-breakdown";
import { formatBps, formatMoney } from "~/ui/research/product-card";

/** "19.99" -> 1999; null when it is not an amount in dollars with at most two decimals. */
export function dollarsToCents(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{0,2}))?\s*$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** "2.9" -> 290 basis points; null unless 0-100 with at most two decimals. */
export function percentToBps(text: string): number | null {
  const m = /^\s*(\d{1,3})(?:\.(\d{0,2}))?\s*%?\s*$/.exec(text);
  if (!m) return null;
  const bps = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bps <= 10_000 ? bps : null;
}

function centsToText(cents: number): string {
  return (cents / 100).toFixed(2);
}

export interface ProfitDefaults {
  priceCents: number;
  /** null: the supplier cost is unknown; the seller types theirs and the results say they are from it. */
  costCents: number | null;
  shippingCents: number;
  /** null: dollars. Otherwise the stores' currency (decision 059): the price field starts empty, never as dollars. */
  priceCurrency?: string | null;
}

/** Typical card processing on Shopify Payments; the seller types their own. */
const DEFAULT_FEE_PERCENT = "2.9";
const DEFAULT_FEE_FIXED = "0.30";

/** `landed` (decision 052): duty layers and reserves; the results then count duty and reserves too. */
export function ProfitCalculator({ defaults, landed, objectID }: { defaults: ProfitDefaults; landed?: LandedCostData | null; objectID?: string }) {
  const foreignCurrency = priceInDollars(defaults.priceCurrency) ? null : (defaults.priceCurrency ?? null);
  const [fields, setFields] = useState({
    price: foreignCurrency ? "" : centsToText(defaults.priceCents),
    cost: defaults.costCents === null ? "" : centsToText(defaults.costCents),
    shipping: centsToText(defaults.shippingCents),
    feePercent: DEFAULT_FEE_PERCENT,
    feeFixed: DEFAULT_FEE_FIXED,
    adCost: "0.00",
  });
  const set = (name: keyof typeof fields) => (value: string) => setFields((f) => ({ ...f, [name]: value }));

  const price = dollarsToCents(fields.price);
  const foreignPrice = foreignCurrency !== null && fields.price.trim() === "";
  const costUnknown = defaults.costCents === null;
  const cost = costUnknown && fields.cost.trim() === "" ? null : dollarsToCents(fields.cost);
  const shipping = dollarsToCents(fields.shipping);
  const feesBps = percentToBps(fields.feePercent);
  const feeFixed = dollarsToCents(fields.feeFixed);
  const adCost = dollarsToCents(fields.adCost);
  const amountError = (v: number | null) => (v === null ? "Enter an amount like 19.99" : undefined);

  let result: ProfitResult | null = null;
  let landedParts = { dutyCents: 0, refundCents: 0, chargebackCents: 0 };
  if (price !== null && price > 0 && cost !== null && shipping !== null && feesBps !== null && feeFixed !== null && adCost !== null) {
    // Duty is charged on the typed cost; reserves on the typed price. Both are per-order costs like the cost itself.
    if (landed?.duty && landed.reserves) landedParts = { dutyCents: dutyOnValue(landed.duty.layers, cost), ...reservesOf(price, landed.reserves) };
    const extra = landedParts.dutyCents + landedParts.refundCents + landedParts.chargebackCents;
    result = profit({ priceCents: price, costCents: cost + extra, shippingCents: shipping, feesBps, feeFixedCents: feeFixed, adCostPerPurchaseCents: adCost });
  }

  return (
    <Card>
      <BlockStack gap="400">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            Profit calculator
          </Text>
          <Text as="p" tone="subdued">
            Filled in with this product&apos;s figures; change any of them to your own.
          </Text>
        </BlockStack>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 3 }} gap="300">
          <TextField
            label="Selling price"
            prefix="$"
            inputMode="decimal"
            value={fields.price}
            onChange={set("price")}
            autoComplete="off"
            helpText={
              foreignCurrency !== null
                ? `The stores sell it in ${currencyInWords(foreignCurrency)}: type your selling price in US dollars`
                : undefined
            }
            error={foreignPrice ? undefined : price === 0 ? "The price must be above $0" : amountError(price)}
          />
          <TextField
            label={costUnknown ? "Your product cost" : "Product cost"}
            prefix="$"
            inputMode="decimal"
            value={fields.cost}
            onChange={set("cost")}
            autoComplete="off"
            helpText={costUnknown ? "We do not know this product's supplier cost: add your cost" : undefined}
            error={costUnknown && fields.cost.trim() === "" ? undefined : amountError(cost)}
          />
          <TextField label="Shipping" prefix="$" inputMode="decimal" value={fields.shipping} onChange={set("shipping")} autoComplete="off" error={amountError(shipping)} />
          <TextField
            label="Payment fees"
            suffix="%"
            inputMode="decimal"
            value={fields.feePercent}
            onChange={set("feePercent")}
            autoComplete="off"
            error={feesBps === null ? "Enter a percentage from 0 to 100" : undefined}
          />
          <TextField label="Fixed fee per order" prefix="$" inputMode="decimal" value={fields.feeFixed} onChange={set("feeFixed")} autoComplete="off" error={amountError(feeFixed)} />
          <TextField
            label="Ad cost per purchase"
            prefix="$"
            inputMode="decimal"
            value={fields.adCost}
            onChange={set("adCost")}
            autoComplete="off"
            helpText="What you pay in ads for one sale (CPA)"
            error={amountError(adCost)}
          />
        </InlineGrid>
        {foreignPrice ? (
          <Box background="bg-surface-secondary" padding="300" borderRadius="200">
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                Add your price in dollars
              </Text>
              <Text as="p" variant="bodySm">
                The stores we read price this product in another currency, and we do not convert prices. Type what you
                would sell it for in US dollars and the calculator works out duty, fees and profit from it.
              </Text>
            </BlockStack>
          </Box>
        ) : null}
        {costUnknown && fields.cost.trim() === "" ? (
          <Box background="bg-surface-secondary" padding="300" borderRadius="200">
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                Add your cost
              </Text>
              <Text as="p" variant="bodySm">
                This product&apos;s supplier cost is unknown, so there is no profit or margin to show yet. Type what it costs you
                above and the calculator works them out from your figure.
              </Text>
            </BlockStack>
          </Box>
        ) : null}
        {result ? (
          <Box background="bg-surface-secondary" padding="300" borderRadius="200">
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  Per order
                </Text>
                {costUnknown && cost !== null ? <Badge tone="info">{`From your cost of ${formatMoney(cost)}`}</Badge> : null}
                {result.profitable ? <Badge tone="success">Profitable</Badge> : <Badge tone="critical">Loses money</Badge>}
              </InlineStack>
              <DescriptionList
                gap="tight"
                items={[
                  { term: "Fees", description: formatMoney(result.feesCents) },
                  { term: "Profit before ads", description: `${formatMoney(result.profitBeforeAdsCents)} (the most one sale's ads may cost)` },
                  { term: "Profit per order", description: formatMoney(result.profitPerOrderCents) },
                  { term: landed?.duty ? "Margin after duty, fees, reserves and ads" : "Margin after fees and ads", description: formatBps(result.marginBps) },
                  {
                    term: "Break-even ROAS",
                    description:
                      result.breakEvenRoas === null ? "None: an order loses money before any ads" : `${result.breakEvenRoas.toFixed(2)}x`,
                  },
                  {
                    term: "ROAS at your ad cost",
                    description: result.roasAtAdCost === null ? "No ad cost entered" : `${result.roasAtAdCost.toFixed(2)}x`,
                  },
                ]}
              />
              {landed ? <LandedCostBreakdown view={landed} {...landedParts} objectID={objectID} /> : null}
            </BlockStack>
          </Box>
        ) : null}
        <Text as="p" variant="bodySm" tone="subdued">
          {PROFIT_NOTES.rounding}
        </Text>
      </BlockStack>
    </Card>
  );
}
