// /dashboard/saved: saved products, tracked products with the change since tracking, and saved
// searches (open one to see what is new since the last visit; delete). Removing goes through this
// route's action, which calls the product services.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Layout, Page } from "@shopify/polaris";
import { z } from "zod";
import { researchAccess } from "~/domain/research-access";
import { auth, products } from "~/services/index.server";
import { ProductNotFoundError } from "~/services/products.server";
import { SavedProductList, SavedSearchList, TrackedProductList, type SavedSearchView } from "~/ui/product-lists";

export const meta: MetaFunction = () => [{ title: "Saved · Winning Products" }];

const productUrl = (objectID: string) => `/dashboard/products/${encodeURIComponent(objectID)}`;
const openSearchUrl = (s: SavedSearchView) => `/dashboard/products?${s.query ? `${s.query}&` : ""}savedSearch=${s.id}`;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  const access = researchAccess(user);
  const [saved, tracked, searches] = await Promise.all([
    products.listSaved(user.id, access),
    products.listTracked(user.id, access),
    products.listSavedSearches(user.id),
  ]);
  return { saved, tracked, searches };
}

const Form = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("unsave"), objectID: z.string().min(1).max(120) }),
  z.object({ intent: z.literal("untrack"), objectID: z.string().min(1).max(120) }),
  z.object({ intent: z.literal("delete-search"), id: z.coerce.number().int().positive() }),
]);

export async function action({ request }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  const form = Form.safeParse(Object.fromEntries(await request.formData()));
  if (!form.success) return data({ ok: false, message: "Unknown action." }, { status: 400 });
  const input = form.data;
  try {
    if (input.intent === "unsave") await products.unsaveProduct(user.id, input.objectID);
    else if (input.intent === "untrack") await products.untrackProduct(user.id, input.objectID);
    else if (!(await products.deleteSavedSearch(user.id, input.id))) {
      return data({ ok: false, message: "That saved search no longer exists." }, { status: 404 });
    }
  } catch (error) {
    if (error instanceof ProductNotFoundError) return data({ ok: false, message: error.message }, { status: 404 });
    throw error;
  }
  return { ok: true, message: "Done." };
}

function RowAction({ fields, label }: { fields: Record<string, string>; label: string }) {
  const fetcher = useFetcher<typeof action>();
  return (
    <fetcher.Form method="post">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button submit variant="tertiary" loading={fetcher.state !== "idle"}>
        {label}
      </Button>
    </fetcher.Form>
  );
}

export default function SavedPage() {
  const { saved, tracked, searches } = useLoaderData<typeof loader>();
  return (
    <Page title="Saved" subtitle="Products you saved or track, and searches you come back to." primaryAction={{ content: "Find products", url: "/dashboard/products" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SavedProductList
              products={saved}
              productUrl={productUrl}
              actions={(p) => <RowAction fields={{ intent: "unsave", objectID: p.objectID }} label="Remove" />}
            />
            <TrackedProductList
              products={tracked}
              productUrl={productUrl}
              actions={(p) => <RowAction fields={{ intent: "untrack", objectID: p.objectID }} label="Stop tracking" />}
            />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SavedSearchList
            searches={searches}
            openUrl={openSearchUrl}
            actions={(s) => <RowAction fields={{ intent: "delete-search", id: String(s.id) }} label="Delete" />}
          />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
