// Opening a site page from inside Shopify admin (docs/decisions/016): the checkout, changing the card,
// connecting Discord. The tab is opened at once, inside the click (browsers, and the admin's iframe
// sandbox, allow new tabs only from a user's click), while the embedded app asks POST /app/handoff for
// a one-time sign-in link; the tab then goes there and lands signed in. If the browser blocked the
// tab, the merchant gets the link to click instead. Either way a banner says what happened.
import { useRevalidator } from "@remix-run/react";
import { Banner, Layout, Link } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import type { HandoffDestination } from "~/domain/shopify/handoff";

export type HandoffState =
  | { status: "idle" }
  | { status: "opening"; what: string }
  | { status: "opened"; what: string }
  | { status: "blocked"; what: string; url: string }
  | { status: "failed"; what: string; message: string };

const HANDOFF_ENDPOINT = "/app/handoff";

async function requestLink(destination: HandoffDestination): Promise<string> {
  const response = await fetch(HANDOFF_ENDPOINT, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(destination),
  });
  const body = (await response.json().catch(() => ({}))) as { url?: unknown; error?: unknown };
  if (!response.ok || typeof body.url !== "string") {
    throw new Error(typeof body.error === "string" ? body.error : `The link could not be made (${response.status}).`);
  }
  return body.url;
}

/** `open(destination, what)` from a click handler; `what` names the page in the banner ("the Pro checkout"). */
export function useHandoff() {
  const revalidator = useRevalidator();
  const [state, setState] = useState<HandoffState>({ status: "idle" });

  // Coming back to the admin tab after paying: show the new plan and credits without a reload.
  const opened = state.status === "opened";
  useEffect(() => {
    if (!opened) return;
    const onVisible = () => {
      if (document.visibilityState === "visible") revalidator.revalidate();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [opened, revalidator]);

  const open = useCallback(async (destination: HandoffDestination, what: string) => {
    const tab = window.open("", "_blank");
    if (tab) {
      tab.document.title = "Winning Products";
      tab.document.body.textContent = `Opening ${what}…`;
    }
    setState({ status: "opening", what });
    try {
      const url = await requestLink(destination);
      if (tab && !tab.closed) {
        // The site's tab has no business with the admin's frame.
        tab.opener = null;
        tab.location.href = url;
        setState({ status: "opened", what });
      } else {
        setState({ status: "blocked", what, url });
      }
    } catch (error) {
      tab?.close();
      setState({ status: "failed", what, message: error instanceof Error ? error.message : String(error) });
    }
  }, []);

  const dismiss = useCallback(() => setState({ status: "idle" }), []);
  const refresh = useCallback(() => {
    revalidator.revalidate();
    setState({ status: "idle" });
  }, [revalidator]);

  return { state, open, busy: state.status === "opening", refresh, dismiss };
}
export type Handoff = ReturnType<typeof useHandoff>;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What happened to the last hand-off, as the first section of a page's Layout (nothing while idle). */
export function HandoffNoticeSection({ handoff }: { handoff: Handoff }) {
  const notice = handoffNotice(handoff);
  return notice ? <Layout.Section>{notice}</Layout.Section> : null;
}

function handoffNotice(handoff: Handoff) {
  const { state } = handoff;
  switch (state.status) {
    case "idle":
    case "opening":
      return null;
    case "opened":
      return (
        <Banner
          tone="success"
          title={`${capitalised(state.what)} opened in a new tab`}
          action={{ content: "I'm done, refresh this page", onAction: handoff.refresh }}
          onDismiss={handoff.dismiss}
        >
          <p>
            Shopify admin cannot show that page inside the app, so it opened on the Winning Products website, already
            signed in to this store&apos;s account. Come back to this tab when you are done.
          </p>
        </Banner>
      );
    case "blocked":
      return (
        <Banner tone="warning" title="Your browser blocked the new tab" onDismiss={handoff.dismiss}>
          <p>
            <Link url={state.url} target="_blank">
              {`Open ${state.what}`}
            </Link>{" "}
            (the link signs you in and works once, for the next few minutes).
          </p>
        </Banner>
      );
    case "failed":
      return (
        <Banner tone="critical" title={`${capitalised(state.what)} could not be opened`} onDismiss={handoff.dismiss}>
          <p>{state.message}</p>
        </Banner>
      );
  }
}
