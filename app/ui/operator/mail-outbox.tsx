// The built-in mail outbox for operators (decision 051): the newest .eml files the mailer wrote under
// MAIL_OUTBOX_DIR when no SMTP server is configured. A card the operator page can include as it is.
import { BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import type { OutboxEntry } from "~/domain/accounts/account-emails";

export interface MailOutboxData {
  mode: "smtp" | "outbox";
  dir: string;
  messages: OutboxEntry[];
}

export function MailOutboxCard({ data }: { data: MailOutboxData }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Sent e-mail
        </Text>
        {data.mode === "smtp" ? (
          <Text as="p" tone="subdued">
            Mail goes out through the SMTP server in SMTP_URL; your provider&apos;s dashboard lists what was sent.
          </Text>
        ) : (
          <>
            <Text as="p" tone="subdued">
              No SMTP_URL is set, so no mail leaves this machine: each message is written as an .eml file in {data.dir}
              (open one in any mail program). Newest first.
            </Text>
            {data.messages.length === 0 ? (
              <Text as="p">No messages yet.</Text>
            ) : (
              <DataTable
                columnContentTypes={["text", "text", "text", "text"]}
                headings={["Date", "To", "Subject", "File"]}
                rows={data.messages.map((m) => [m.date, m.to, m.subject, m.file])}
              />
            )}
          </>
        )}
      </BlockStack>
    </Card>
  );
}
