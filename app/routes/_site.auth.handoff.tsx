// GET /auth/handoff?token=...: where a one-time link from the embedded app lands, in a new top-level tab
// (docs/decisions/016). A valid token signs this browser in as the user the shop is linked to (an
// ordinary site session; whoever was signed in here before is signed out) and goes on to the page the
// embedded app asked for. A token that is malformed or unknown (400), expired or already used (401)
// creates nothing and says so. A GET because window.open can only open a URL; the token is single-use,
// lives minutes, and the redirect drops it from the address bar.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Button, Text } from "@shopify/polaris";
import { HANDOFF_REFUSALS } from "~/domain/shopify/handoff";
import { createUserSession, logout } from "~/pages/http/site-session.server";
import { handoff } from "~/services/index.server";
import { NarrowCard } from "~/ui/shared/narrow-card";

export const meta: MetaFunction = () => [
  { title: "Signing in · Winning Products" },
  { name: "robots", content: "noindex" },
];

const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await handoff.redeem(token);
  if (!result.ok) {
    const refusal = HANDOFF_REFUSALS[result.reason];
    return data({ title: refusal.title, message: refusal.message }, { status: refusal.status, headers: PRIVATE });
  }
  await logout(request);
  const cookie = await createUserSession(result.userId, request);
  return redirect(result.target, { headers: { ...PRIVATE, "Set-Cookie": cookie } });
}

export default function HandoffRefused() {
  const { title, message } = useLoaderData<typeof loader>();
  return (
    <NarrowCard title={title} gap="300">
      <Text as="p">{message}</Text>
      <div>
        <Button url="/login">Log in on the website instead</Button>
      </div>
    </NarrowCard>
  );
}
