// The site's account page (/dashboard/account): change the password or the e-mail, download the data,
// sign out everywhere, delete the account, each confirmed as app/pages/accounts/account.server.ts expects.
import type { SerializeFrom } from "@remix-run/node";
import { Form, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Box, Button, Card, FormLayout, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import type { AccountIntent, AccountOutcome, loadAccountPage } from "~/pages/accounts/account.server";
import { ApiKeysCard } from "~/ui/accounts/api-keys-card";

export type AccountPageData = SerializeFrom<typeof loadAccountPage>;

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

/** One of the page's forms in its card: posts its intent here, titled by a heading that names the form. */
function IntentForm(props: {
  intent: AccountIntent;
  title: ReactNode;
  titleTone?: "critical";
  noValidate?: boolean;
  children: ReactNode;
}) {
  const titleId = `${props.intent}-title`;
  return (
    <Card>
      <Form method="post" noValidate={props.noValidate} aria-labelledby={titleId}>
        <IntentField intent={props.intent} />
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd" id={titleId} tone={props.titleTone}>
            {props.title}
          </Text>
          {props.children}
        </BlockStack>
      </Form>
    </Card>
  );
}

/** How the account confirms a change: its password, or (signing in only with Google) its e-mail address. */
type Confirm = { label: string; type: "password" | "email"; autoComplete: string };

/** Whether the last submit of a form was refused because of this field. */
function refusedField(outcome: AccountOutcome | undefined, field: string): boolean {
  return Boolean(outcome?.error) && outcome?.field === field;
}

/** A field of a form, shown as refused when the form's last outcome names it. */
function OutcomeField(props: {
  outcome: AccountOutcome | undefined;
  name: string;
  label: string;
  type?: "password" | "email";
  autoComplete: string;
  helpText?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={props.label}
      name={props.name}
      type={props.type}
      autoComplete={props.autoComplete}
      helpText={props.helpText}
      value={props.value}
      onChange={props.onChange}
      error={refusedField(props.outcome, props.name) || undefined}
    />
  );
}

/** The field that confirms a form with the password (or the e-mail address, see Confirm); refused as "confirmation". */
function ConfirmField(props: {
  confirm: Confirm;
  outcome: AccountOutcome | undefined;
  name: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={props.confirm.label}
      name={props.name}
      type={props.confirm.type}
      autoComplete={props.confirm.autoComplete}
      value={props.value}
      onChange={props.onChange}
      error={refusedField(props.outcome, "confirmation") || undefined}
    />
  );
}

/** A confirmed form's body: the outcome of its last submit, its fields, and its submit button. */
function ConfirmedFields({ outcome, submit, children }: { outcome: AccountOutcome | undefined; submit: ReactNode; children: ReactNode }) {
  return (
    <>
      <Outcome outcome={outcome} />
      <FormLayout>{children}</FormLayout>
      <Box>{submit}</Box>
    </>
  );
}

export function AccountPage({ overview, actionData }: { overview: AccountPageData; actionData: AccountOutcome | undefined }) {
  const navigation = useNavigation();
  const submitting = (intent: AccountIntent) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  // Accounts that sign in only with Google have no password: they confirm with their e-mail address.
  const confirm: Confirm = overview.hasPassword
    ? { label: "Current password", type: "password", autoComplete: "current-password" }
    : { label: "Your e-mail address (your account signs in with Google)", type: "email", autoComplete: "email" };

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
                {overview.pendingEmail ? (
                  <Text as="p" tone="subdued" breakWord>
                    Waiting for confirmation: <span data-testid="account-pending-email">{overview.pendingEmail}</span>. Open the link we
                    sent there to log in with it; until then you log in with {overview.email}.
                  </Text>
                ) : null}
                <Text as="p" tone="subdued">
                  Member since {overview.memberSince}
                  {overview.signsInWithGoogle ? " · signs in with Google" : ""}
                </Text>
              </BlockStack>
            </Card>

            <ApiKeysCard initial={overview.apiKeys} />

            <IntentForm
              intent="change-password"
              title={overview.hasPassword ? "Change password" : "Set a password"}
              noValidate
            >
              <Text as="p" tone="subdued">
                Every other device is signed out; this one stays signed in.
              </Text>
              <ConfirmedFields
                outcome={password}
                submit={
                  <Button submit variant="primary" loading={submitting("change-password")}>
                    {overview.hasPassword ? "Change password" : "Set password"}
                  </Button>
                }
              >
                <ConfirmField confirm={confirm} outcome={password} name="currentPassword" value={currentPassword} onChange={setCurrentPassword} />
                <OutcomeField
                  outcome={password}
                  label="New password"
                  name="newPassword"
                  type="password"
                  autoComplete="new-password"
                  helpText="At least 8 characters."
                  value={newPassword}
                  onChange={setNewPassword}
                />
              </ConfirmedFields>
            </IntentForm>

            <IntentForm intent="change-email" title="Change e-mail" noValidate>
              <Text as="p" tone="subdued">
                We send a link to the new address; it becomes your log-in address once you open it.
              </Text>
              <ConfirmedFields
                outcome={email}
                submit={
                  <Button submit loading={submitting("change-email")}>
                    Change e-mail
                  </Button>
                }
              >
                <OutcomeField
                  outcome={email}
                  label="New e-mail address"
                  name="newEmail"
                  type="email"
                  autoComplete="email"
                  value={newEmail}
                  onChange={setNewEmail}
                />
                <ConfirmField confirm={confirm} outcome={email} name="password" value={emailConfirm} onChange={setEmailConfirm} />
              </ConfirmedFields>
            </IntentForm>

            <DownloadData confirm={confirm} />

            <IntentForm intent="sign-out-everywhere" title="Devices">
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
            </IntentForm>

            <IntentForm intent="delete-account" title="Delete my account" titleTone="critical" noValidate>
              <Text as="p">
                {overview.activeSubscriptions > 0
                  ? "Your subscription is cancelled first, so you are never charged again. Then your account, your credits, saved products, product pages, ads, store links and everything else we hold about you are erased. This cannot be undone."
                  : "Your account, your credits, saved products, product pages, ads, store links and everything else we hold about you are erased. This cannot be undone."}
              </Text>
              <ConfirmedFields
                outcome={deletion}
                submit={
                  <Button submit tone="critical" variant="primary" loading={submitting("delete-account")}>
                    Delete my account
                  </Button>
                }
              >
                <ConfirmField confirm={confirm} outcome={deletion} name="confirmation" value={deleteConfirm} onChange={setDeleteConfirm} />
                <OutcomeField
                  outcome={deletion}
                  label="Type DELETE to confirm"
                  name="typedWord"
                  autoComplete="off"
                  value={typedWord}
                  onChange={setTypedWord}
                />
              </ConfirmedFields>
            </IntentForm>
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
function DownloadData({ confirm }: { confirm: Confirm }) {
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

  // Any refusal of the download is the confirmation's.
  const shown: AccountOutcome | undefined = outcome ? { intent: null, field: "confirmation", ...outcome } : undefined;
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
          <ConfirmedFields
            outcome={shown}
            submit={
              <Button submit loading={busy}>
                Download my data
              </Button>
            }
          >
            <ConfirmField confirm={confirm} outcome={shown} name="confirmation" value={value} onChange={setValue} />
          </ConfirmedFields>
        </BlockStack>
      </Form>
    </Card>
  );
}
