// The e-mail and password form of the site's log-in and sign-up pages and of the embedded app's linking
// screen: one set of fields, labels, autocomplete hints and password rule, so the three cannot drift.
// `mode` picks what the password field asks for; `children` are the form's own extra fields, shown above
// the button (a checkbox, hidden inputs, a message).
import { Form } from "@remix-run/react";
import { BlockStack, Button, TextField } from "@shopify/polaris";
import { useState, type ReactNode } from "react";
import { PASSWORD_MIN_LENGTH } from "~/domain/accounts/auth";

export type EmailPasswordMode = "login" | "signup";

export function EmailPasswordForm(props: {
  mode: EmailPasswordMode;
  /** The address typed before (after a refused submit), or one the link carried. */
  initialEmail: string;
  errors: Partial<Record<string, string>>;
  submitLabel: string;
  submitting: boolean;
  /** Hidden inputs that go first in the form (an intent, where to go next). */
  hidden?: ReactNode;
  children?: ReactNode;
}) {
  const [email, setEmail] = useState(props.initialEmail);
  const [password, setPassword] = useState("");
  return (
    <Form method="post" noValidate>
      {props.hidden}
      <BlockStack gap="300">
        <TextField
          label="E-mail"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={props.errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete={props.mode === "login" ? "current-password" : "new-password"}
          value={password}
          onChange={setPassword}
          // The rule once: as the hint, or (when the password broke it) as the error that says the same.
          helpText={props.mode === "signup" && !props.errors.password ? `At least ${PASSWORD_MIN_LENGTH} characters.` : undefined}
          error={props.errors.password}
        />
        {props.children}
        <Button submit variant="primary" loading={props.submitting} fullWidth>
          {props.submitLabel}
        </Button>
      </BlockStack>
    </Form>
  );
}
