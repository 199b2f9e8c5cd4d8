// Installing from outside Shopify admin: the merchant types the shop domain and is sent to Shopify.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { readForm } from "~/pages/http/http.server";
import { login } from "~/shopify.server";
import { PolarisProvider } from "~/ui/shared/site-shell";
import { loginErrorMessage } from "./error.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return { errors: loginErrorMessage(await login(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  // The library reads the form itself and fails with a 500 on a body that is not one: refuse it first.
  await readForm(request.clone());
  return { errors: loginErrorMessage(await login(request)) };
}

export default function ShopLogin() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const { errors } = actionData ?? loaderData;
  return (
    <PolarisProvider>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <BlockStack gap="200">
                <Text variant="headingMd" as="h1">
                  Install Winning Products on your Shopify store
                </Text>
              </BlockStack>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Continue</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisProvider>
  );
}
