// "Create product page" and "Automatic mode (4 credits)" for one research product, on a product's
// detail page on both surfaces: <ProductPageActions objectID={product.objectID} surface="site" />. It
// talks to the JSON API (/api/product-pages, /api/product-pages/automatic), which takes the site
// session or, inside Shopify admin, the session token App Bridge adds to same-origin fetches; loads the
// user's connected stores itself, and says who writes the copy ("built-in writer" or the AI model).
import { useNavigate } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Link, Select, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { sitePathOn } from "~/domain/shopify/embedded-paths";
import { researchPaths, type Surface } from "~/ui/research/research-paths";

interface StoreOption {
  shop: string;
  storeName: string;
}

type Result =
  | { kind: "created"; title: string; editorUrl: string }
  | { kind: "pushed"; title: string; adminUrl: string | null; shop: string }
  | { kind: "upsell"; message: string }
  | { kind: "error"; message: string; refunded?: boolean };

/** The stores as choices of a Select: "Name (shop)", or the shop alone when it is its name. */
export function storeOptions(stores: StoreOption[]) {
  return stores.map((s) => ({ label: s.storeName === s.shop ? s.shop : `${s.storeName} (${s.shop})`, value: s.shop }));
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  let data: Record<string, unknown> = {};
  try {
    data = (await res.json()) as Record<string, unknown>;
  } catch {
    // an empty or non-JSON answer: only the status is known
  }
  return { status: res.status, data };
}

export function ProductPageActions({ objectID, surface }: { objectID: string; surface: Surface }) {
  const navigate = useNavigate();
  const paths = researchPaths(surface);
  const [stores, setStores] = useState<StoreOption[] | null>(null);
  const [writer, setWriter] = useState<string>("");
  const [shop, setShop] = useState("");
  const [busy, setBusy] = useState<"create" | "automatic" | null>(null);
  const [result, setResult] = useState<Result | null>(null);

  useEffect(() => {
    let cancelled = false;
    fetch("/api/product-pages", { headers: { accept: "application/json" }, credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : { stores: [], writer: "" }))
      .then((d: { stores: StoreOption[]; writer: string }) => {
        if (cancelled) return;
        setStores(d.stores);
        setWriter(d.writer);
        setShop((s) => s || d.stores[0]?.shop || "");
      })
      .catch(() => !cancelled && setStores([]));
    return () => {
      cancelled = true;
    };
  }, []);

  async function create() {
    setBusy("create");
    setResult(null);
    try {
      const { status, data } = await postJson("/api/product-pages", { objectID });
      if (status === 201) {
        const editorUrl = `${paths.productPages}?page=${data.id}`;
        // The site opens the editor; inside the admin the merchant stays on the product, with a link to it.
        if (surface === "site") navigate(editorUrl);
        else setResult({ kind: "created", title: String(data.title ?? "Your product page"), editorUrl });
      } else if (status === 402) setResult({ kind: "upsell", message: String(data.error ?? "Not enough credits.") });
      else setResult({ kind: "error", message: String(data.error ?? `The page could not be created (${status}).`) });
    } catch {
      setResult({ kind: "error", message: "The server could not be reached. Check your connection and try again." });
    } finally {
      setBusy(null);
    }
  }

  async function automatic() {
    if (!shop) return;
    setBusy("automatic");
    setResult(null);
    try {
      // One key per click, so a retried request is charged once (crypto.randomUUID needs https).
      const key = `auto-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
      const { status, data } = await postJson(
        "/api/product-pages/automatic",
        { objectID, shop },
        { "idempotency-key": key },
      );
      const page = data.page as { title: string; shopifyAdminUrl: string | null } | null | undefined;
      if (status === 200 && page)
        setResult({ kind: "pushed", title: page.title, adminUrl: page.shopifyAdminUrl, shop });
      else if (status === 402) setResult({ kind: "upsell", message: String(data.error ?? "Not enough credits.") });
      else
        setResult({
          kind: "error",
          message: String(data.error ?? `Automatic mode failed (${status}).`),
          refunded: Boolean(data.refunded),
        });
    } catch {
      setResult({ kind: "error", message: "The server could not be reached. Check your connection and try again." });
    } finally {
      setBusy(null);
    }
  }

  const noStores = stores !== null && stores.length === 0;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Sell this product
        </Text>
        <Text as="p" tone="subdued">
          Get a product page (title, description, benefits, SEO and a price with margin)
          {writer ? ` written by the ${writer}` : ""}, edit it, then push it to your Shopify store as a draft.
        </Text>
        {result?.kind === "pushed" ? (
          <Banner tone="success" title="Pushed to your store as a draft">
            <p>
              {result.title} is in {result.shop}.{" "}
              {result.adminUrl ? (
                <Link url={result.adminUrl} external>
                  Open it in Shopify admin
                </Link>
              ) : null}{" "}
              <Link url={paths.productPages}>See your product pages</Link>
            </p>
          </Banner>
        ) : null}
        {result?.kind === "created" ? (
          <Banner tone="success" title="Product page created">
            <p>
              {result.title} is ready as a draft. <Link url={result.editorUrl}>Edit and push it in the editor</Link>
            </p>
          </Banner>
        ) : null}
        {result?.kind === "upsell" ? (
          <Banner
            tone="warning"
            title="Not enough credits"
            action={{ content: "Get more credits", url: paths.credits }}
          >
            <p>{result.message}</p>
          </Banner>
        ) : null}
        {result?.kind === "error" ? (
          <Banner tone="critical" title="That did not work">
            <p>
              {result.message}
              {result.refunded ? " Your credits were refunded." : ""}
            </p>
          </Banner>
        ) : null}
        <div>
          <Button onClick={create} loading={busy === "create"} disabled={busy !== null}>
            Create product page
          </Button>
        </div>
        {stores && stores.length > 0 ? (
          // Stacked, so a long store name fits the narrow column of a product's page.
          <BlockStack gap="200">
            <Select
              label="Store"
              options={storeOptions(stores)}
              value={shop}
              onChange={setShop}
            />
            <div>
              <Button variant="primary" onClick={automatic} loading={busy === "automatic"} disabled={busy !== null || !shop}>
                Automatic mode (4 credits)
              </Button>
            </div>
          </BlockStack>
        ) : null}
        {busy === "automatic" ? (
          <Text as="p" tone="subdued">
            Writing the page and pushing it to {shop}…
          </Text>
        ) : null}
        {noStores ? (
          <Text as="p" variant="bodySm" tone="subdued">
            Automatic mode writes the page and pushes it to your store in one step. Connect your store first:{" "}
            <Link url={`${sitePathOn(surface, "/dashboard/stores")}#connect-shopify`}>connect a Shopify store</Link>.
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}
