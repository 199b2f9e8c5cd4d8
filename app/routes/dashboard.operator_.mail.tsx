// /dashboard/operator/mail: the built-in mail outbox (decision 051), for operators only (404 for everyone else,
// as the operator inbox). Its card (app/ui/operator/mail-outbox.tsx) can also be shown on the operator page itself.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Layout, Page } from "@shopify/polaris";
import { handleServiceErrors } from "~/pages/http/http.server";
import { requireUser } from "~/pages/http/site-session.server";
import { feedback, mailOutbox } from "~/services/index.server";
import { MailOutboxCard } from "~/ui/operator/mail-outbox";

export const meta: MetaFunction = () => [{ title: "Sent e-mail · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  await handleServiceErrors(() => feedback.requireOperator(user.id));
  return { mode: mailOutbox.mode(), dir: mailOutbox.dir(), messages: await mailOutbox.list(100) };
}

export default function OperatorMail() {
  return (
    <Page title="Sent e-mail" backAction={{ content: "Operator inbox", url: "/dashboard/operator" }}>
      <Layout>
        <Layout.Section>
          <MailOutboxCard data={useLoaderData<typeof loader>()} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
