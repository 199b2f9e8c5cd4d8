// "Continue with Google": Firebase web SDK popup in the browser, ID token verified on the server at
// POST /auth/google. Rendered only when the Firebase web config is set (publicEnv().firebase).
import { Banner, BlockStack, Button } from "@shopify/polaris";
import { useState } from "react";
import { GOOGLE_ERRORS, googleErrorCode } from "~/domain/accounts/auth";
import type { PublicEnv } from "~/env.server";

type Props = {
  config: NonNullable<PublicEnv["firebase"]>;
  mode: "signin" | "signup";
  plan?: string;
  billing?: string;
};

export function GoogleButton({ config, mode, plan, billing }: Props) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onClick() {
    setError(null);
    setBusy(true);
    let idToken: string;
    try {
      const [{ initializeApp, getApps }, { getAuth, GoogleAuthProvider, signInWithPopup }] = await Promise.all([
        import("firebase/app"),
        import("firebase/auth"),
      ]);
      const app = getApps()[0] ?? initializeApp(config);
      const credential = await signInWithPopup(getAuth(app), new GoogleAuthProvider());
      idToken = await credential.user.getIdToken();
    } catch (e) {
      const code = googleErrorCode((e as { code?: string }).code);
      console.warn(`Google sign-in failed: ${code}`, e);
      setError(GOOGLE_ERRORS[code]);
      setBusy(false);
      return;
    }
    try {
      const res = await fetch("/auth/google", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ idToken, mode, plan, billing }),
      });
      const body = (await res.json()) as { redirectTo?: string; error?: string };
      if (res.ok && body.redirectTo) {
        window.location.assign(body.redirectTo);
        return;
      }
      setError(body.error ?? GOOGLE_ERRORS.error_3);
    } catch {
      setError(GOOGLE_ERRORS.error_3);
    }
    setBusy(false);
  }

  return (
    <BlockStack gap="200">
      <Button onClick={onClick} loading={busy} fullWidth>
        Continue with Google
      </Button>
      {error ? (
        <Banner tone="critical" onDismiss={() => setError(null)}>
          <p>{error}</p>
        </Banner>
      ) : null}
    </BlockStack>
  );
}
