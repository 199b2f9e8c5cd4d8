// The product page's HTS code picker (issue 35 item 15, decision 081): the code the duty uses, how it was chosen (the
// seller's own, or guessed from the title with its confidence and reason), and the nearest codes from the tariff
// table with their HTS text, to pick from. Picking keeps the code with the seller's saved product
// (POST /api/products/{objectID}/tariff { htsCode }); "Use the guess" puts the guess back ({ htsCode: null }).
import { useFetcher } from "@remix-run/react";
import { Badge, BlockStack, Button, InlineStack, RadioButton, Text } from "@shopify/polaris";
import { useState } from "react";
import type { HtsGuessView } from "~/services/landed-cost.server";

type Serialized<T> = T extends (infer U)[] ? Serialized<U>[] : T extends object ? { [K in keyof T]: Serialized<T[K]> } : T;

const TONE = { high: "success", medium: "attention", low: "warning" } as const;

/** The HTS text's last parts: the line's own words and its parent's (a line of "Other" says little alone). */
function shortDescription(description: string): string {
  const parts = description.split(">").map((p) => p.trim());
  const tail = parts.slice(-2).join(" > ");
  return tail.length > 160 ? `${tail.slice(0, 157)}…` : tail;
}

export function HtsCodePicker({
  objectID,
  current,
  reason,
  guess,
}: {
  objectID: string;
  /** The code the duty uses now, as printed. */
  current: string;
  /** Why it is that code ("your code, kept with your saved product", "guessed from the product's title ..."). */
  reason: string;
  guess: Serialized<HtsGuessView>;
}) {
  const fetcher = useFetcher<{ error?: string; htsCode?: string | null }>();
  const [chosen, setChosen] = useState(current);
  const own = reason.startsWith("your code");
  const failed = fetcher.state === "idle" && fetcher.data?.error ? fetcher.data.error : null;
  const submit = (htsCode: string | null) =>
    fetcher.submit({ htsCode }, { method: "post", action: `/api/products/${encodeURIComponent(objectID)}/tariff`, encType: "application/json" });
  const options = guess.alternatives.some((a) => a.htsCode === current)
    ? guess.alternatives
    : [{ htsCode: current, description: "Your code", scorePercent: 0, section301Checked: true }, ...guess.alternatives];
  return (
    <fieldset data-testid="hts-picker" style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}>
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="legend" variant="headingSm">{`HTS code ${current}`}</Text>
          {own ? <Badge>Your code</Badge> : <Badge tone={TONE[guess.confidence]}>{`Guess: ${guess.confidence} confidence`}</Badge>}
        </InlineStack>
        <Text as="p" variant="bodySm" tone="subdued">
          {own ? `Your code. Our guess from the title: ${guess.htsCode} (${guess.confidence} confidence). ${guess.reason}` : guess.reason}
        </Text>
        <Text as="p" variant="bodySm">
          The nearest codes in our tariff table. Pick the one whose text describes the product:
        </Text>
        <BlockStack gap="100">
          {options.map((o) => (
            <RadioButton
              key={o.htsCode}
              id={`hts-${objectID}-${o.htsCode}`}
              name={`hts-${objectID}`}
              checked={chosen === o.htsCode}
              onChange={() => setChosen(o.htsCode)}
              label={`${o.htsCode}${o.htsCode === guess.htsCode ? " (our guess)" : ""}`}
              helpText={`${shortDescription(o.description)}${o.scorePercent > 0 ? ` · ${o.scorePercent}% match` : ""}${o.section301Checked ? "" : " · Section 301 list not checked for this line: none counted"}`}
            />
          ))}
        </BlockStack>
        <InlineStack gap="200">
          <Button onClick={() => submit(chosen)} disabled={chosen === current && own} loading={fetcher.state !== "idle"}>
            Use this code
          </Button>
          {own ? (
            <Button variant="plain" onClick={() => submit(null)} loading={fetcher.state !== "idle"}>
              Use the guess
            </Button>
          ) : null}
        </InlineStack>
        {failed ? (
          <Text as="p" variant="bodySm" tone="critical">
            {failed}
          </Text>
        ) : null}
      </BlockStack>
    </fieldset>
  );
}
