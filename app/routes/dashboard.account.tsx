import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { BlockStack, Button, Card, Layout, Page, Text } from "@shopify/polaris";
import { auth } from "~/services/index.server";

export const meta: MetaFunction = () => [{ title: "Account · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  return { email: user.email, memberSince: user.createdAt.toISOString().slice(0, 10) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await auth.requireUser(request);
  await auth.revokeAllSessions(user.id);
  const cookie = await auth.logout(request);
  return redirect("/login", { headers: { "Set-Cookie": cookie } });
}

export default function Account() {
  const { email, memberSince } = useLoaderData<typeof loader>();
  return (
    <Page title="Account" backAction={{ content: "Overview", url: "/dashboard?location=dashboard" }}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="p">E-mail: {email}</Text>
              <Text as="p" tone="subdued">
                Member since {memberSince}
              </Text>
              <Form method="post">
                <Button submit tone="critical">
                  Sign out on every device
                </Button>
              </Form>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
