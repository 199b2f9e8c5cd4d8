// /dashboard/account: the seller's own account. Change the password or the e-mail, download their data,
// sign out everywhere, delete the account; each confirmed with the password (or, for an account that
// only signs in with Google, its e-mail address), deletion also with the word DELETE. The rules live in
// app/services/account.server.ts, the form handling in app/pages/account-page.server.ts.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, FormLayout, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState, type FormEvent } from "react";
import { accountPageAction, loadAccountPage, type AccountIntent, type AccountOutcome } from "~/pages/account-page.server";
import { requireUser } from "~/pages/site-session.server";

export const meta: MetaFunction = () => [{ title: "Account · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadAccountPage(await requireUser(request));
}

export async function action({ request }: ActionFunctionArgs) {
  return accountPageAction(request, await requireUser(request));
}

/** The outcome of the last submit, when it came from this form. */
function outcomeOf(outcome: AccountOutcome | undefined, intent: AccountIntent) {
  return outcome?.intent === intent ? outcome : undefined;
}

function Outcome({ outcome }: { outcome: AccountOutcome | undefined }) {
  if (!outcome) return null;
  if (outcome.error) {
    return (
      // Polaris gives a critical banner role="alert" and others role="status": screen readers announce them.
      <Banner tone="critical">
        <p>{outcome.error}</p>
      </Banner>
    );
  }
  return outcome.message ? (
    <Banner tone="success">
      <p>{outcome.message}</p>
    </Banner>
  ) : null;
}

function IntentField({ intent }: { intent: AccountIntent | "download-data" }) {
  return <input type="hidden" name="intent" value={intent} />;
}

export default function Account() {
  const overview = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AccountOutcome | undefined;
  const navigation = useNavigation();
  const submitting = (intent: AccountIntent) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  // Accounts that sign in only with Google have no password: they confirm with their e-mail address.
  const confirm = overview.hasPassword
    ? { label: "Current password", type: "password" as const, autoComplete: "current-password" }
    : { label: "Your e-mail address (your account signs in with Google)", type: "email" as const, autoComplete: "email" };

  const password = outcomeOf(actionData, "change-password");
  const email = outcomeOf(actionData, "change-email");
  const deletion = outcomeOf(actionData, "delete-account");

  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [newEmail, setNewEmail] = useState("");
  const [emailConfirm, setEmailConfirm] = useState("");
  const [deleteConfirm, setDeleteConfirm] = useState("");
  const [typedWord, setTypedWord] = useState("");

  // A done change empties its form; a refused one keeps what was typed (except the password).
  useEffect(() => {
    if (!actionData) return;
    if (actionData.intent === "change-password") {
      setCurrentPassword("");
      if (!actionData.error) setNewPassword("");
    }
    if (actionData.intent === "change-email") {
      setEmailConfirm("");
      if (!actionData.error) setNewEmail("");
    }
    if (actionData.intent === "delete-account") setDeleteConfirm("");
  }, [actionData]);

  const fieldError = (outcome: AccountOutcome | undefined, field: string) =>
    outcome?.error && outcome.field === field ? outcome.error : undefined;

  return (
    <Page title="Account" backAction={{ content: "Overview", url: "/dashboard?location=dashboard" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Your account
                </Text>
                <Text as="p" breakWord>
                  E-mail: <span data-testid="account-email">{overview.email}</span>
                </Text>
                <Text as="p" tone="subdued">
                  Member since {overview.memberSince}
                  {overview.signsInWithGoogle ? " · signs in with Google" : ""}
                </Text>
              </BlockStack>
            </Card>

            <Card>
              <Form method="post" noValidate aria-labelledby="change-password-title">
                <IntentField intent="change-password" />
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd" id="change-password-title">
                    {overview.hasPassword ? "Change password" : "Set a password"}
                  </Text>
                  <Text as="p" tone="subdued">
                    Every other device is signed out; this one stays signed in.
                  </Text>
                  <Outcome outcome={password} />
                  <FormLayout>
                    <TextField
                      label={confirm.label}
                      name="currentPassword"
                      type={confirm.type}
                      autoComplete={confirm.autoComplete}
                      value={currentPassword}
                      onChange={setCurrentPassword}
                      error={fieldError(password, "confirmation") ? true : undefined}
                    />
                    <TextField
                      label="New password"
                      name="newPassword"
                      type="password"
                      autoComplete="new-password"
                      helpText="At least 8 characters."
                      value={newPassword}
                      onChange={setNewPassword}
                      error={fieldError(password, "newPassword") ? true : undefined}
                    />
                  </FormLayout>
                  <Box>
                    <Button submit variant="primary" loading={submitting("change-password")}>
                      {overview.hasPassword ? "Change password" : "Set password"}
                    </Button>
                  </Box>
                </BlockStack>
              </Form>
            </Card>

            <Card>
              <Form method="post" noValidate aria-labelledby="change-email-title">
                <IntentField intent="change-email" />
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd" id="change-email-title">
                    Change e-mail
                  </Text>
                  <Outcome outcome={email} />
                  <FormLayout>
                    <TextField
                      label="New e-mail address"
                      name="newEmail"
                      type="email"
                      autoComplete="email"
                      value={newEmail}
                      onChange={setNewEmail}
                      error={fieldError(email, "newEmail") ? true : undefined}
                    />
                    <TextField
                      label={confirm.label}
                      name="password"
                      type={confirm.type}
                      autoComplete={confirm.autoComplete}
                      value={emailConfirm}
                      onChange={setEmailConfirm}
                      error={fieldError(email, "confirmation") ? true : undefined}
                    />
                  </FormLayout>
                  <Box>
                    <Button submit loading={submitting("change-email")}>
                      Change e-mail
                    </Button>
                  </Box>
                </BlockStack>
              </Form>
            </Card>

            <DownloadData confirm={confirm} />

            <Card>
              <Form method="post" aria-labelledby="devices-title">
                <IntentField intent="sign-out-everywhere" />
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd" id="devices-title">
                    Devices
                  </Text>
                  <Text as="p" tone="subdued">
                    {overview.sessions === 1
                      ? "You are signed in on this device only."
                      : `You are signed in on ${overview.sessions} devices or browsers.`}
                  </Text>
                  <Box>
                    <Button submit tone="critical">
                      Sign out on every device
                    </Button>
                  </Box>
                </BlockStack>
              </Form>
            </Card>

            <Card>
              <Form method="post" noValidate aria-labelledby="delete-account-title">
                <IntentField intent="delete-account" />
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd" id="delete-account-title" tone="critical">
                    Delete my account
                  </Text>
                  <Text as="p">
                    {overview.activeSubscriptions > 0
                      ? "Your subscription is cancelled first, so you are never charged again. Then your account, your credits, saved products, product pages, ads, store links and everything else we hold about you are erased. This cannot be undone."
                      : "Your account, your credits, saved products, product pages, ads, store links and everything else we hold about you are erased. This cannot be undone."}
                  </Text>
                  <Outcome outcome={deletion} />
                  <FormLayout>
                    <TextField
                      label={confirm.label}
                      name="confirmation"
                      type={confirm.type}
                      autoComplete={confirm.autoComplete}
                      value={deleteConfirm}
                      onChange={setDeleteConfirm}
                      error={fieldError(deletion, "confirmation") ? true : undefined}
                    />
                    <TextField
                      label="Type DELETE to confirm"
                      name="typedWord"
                      autoComplete="off"
                      value={typedWord}
                      onChange={setTypedWord}
                      error={fieldError(deletion, "typedWord") ? true : undefined}
                    />
                  </FormLayout>
                  <Box>
                    <Button submit tone="critical" variant="primary" loading={submitting("delete-account")}>
                      Delete my account
                    </Button>
                  </Box>
                </BlockStack>
              </Form>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/**
 * "Download my data": posts to /dashboard/account/data. With JavaScript the answer is read here, so a
 * wrong password shows its sentence beside the form and a good one saves the file; without it the
 * browser posts the form itself and saves the attachment.
 */
function DownloadData({ confirm }: { confirm: { label: string; type: "password" | "email"; autoComplete: string } }) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ error: string | null; message: string | null } | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setBusy(true);
    setOutcome(null);
    try {
      const res = await fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string } | null;
        setOutcome({ error: body?.error ?? "The download did not work. Try again.", message: null });
        return;
      }
      const name =
        /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "winning-products-data.json";
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
      setOutcome({ error: null, message: `Saved ${name}.` });
    } catch {
      setOutcome({ error: "The download did not work: check your connection and try again.", message: null });
    } finally {
      setValue("");
      setBusy(false);
    }
  }

  return (
    <Card>
      <Form
        method="post"
        action="/dashboard/account/data"
        reloadDocument
        noValidate
        onSubmit={onSubmit}
        aria-labelledby="download-data-title"
      >
        <IntentField intent="download-data" />
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id="download-data-title">
            Download my data
          </Text>
          <Text as="p" tone="subdued">
            A JSON file with everything we hold about you: your profile, subscriptions and payments, credits,
            saved and tracked products, searches, course progress, feedback, linked stores, product pages, ads
            and glitches. Never your password or tokens.
          </Text>
          {outcome ? <Outcome outcome={{ intent: null, field: null, ...outcome }} /> : null}
          <FormLayout>
            <TextField
              label={confirm.label}
              name="confirmation"
              type={confirm.type}
              autoComplete={confirm.autoComplete}
              value={value}
              onChange={setValue}
              error={outcome?.error ? true : undefined}
            />
          </FormLayout>
          <Box>
            <Button submit loading={busy}>
              Download my data
            </Button>
          </Box>
        </BlockStack>
      </Form>
    </Card>
  );
}
