// The community on the dashboard: the card with the Discord invite (or why there is none) and the
// Discord account connection, and the prompt (app/domain/community.ts decides which one is due).
// Both post to the JSON API (/api/community/...), so the embedded surface reuses them (its Settings page).
import { Form, useFetcher } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Modal, Text } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";

export interface CommunityData {
  inviteUrl: string | null;
  notConfiguredMessage: string | null;
  joined: boolean;
  discordUserName: string | null;
  oauthEnabled: boolean;
}

export interface PopupData {
  popup: number;
  title: string;
  message: string;
  last: boolean;
}

/** The banner after coming back from Discord (?discord=...). */
export function discordNotice(outcome: string | null): { tone: "success" | "warning" | "critical" | "info"; title: string; message: string } | null {
  switch (outcome) {
    case "connected":
      return { tone: "success", title: "Discord connected", message: "Your Discord account is now linked to this account." };
    case "disconnected":
      return { tone: "info", title: "Discord disconnected", message: "Your Discord account is no longer linked." };
    case "denied":
      return { tone: "warning", title: "Discord not connected", message: "The request was cancelled on Discord. Nothing changed." };
    case "state":
      return { tone: "warning", title: "Discord not connected", message: "That Discord link expired or was started elsewhere. Try again from here." };
    case "taken":
      return { tone: "critical", title: "Discord not connected", message: "That Discord account is already connected to another account here." };
    case "failed":
      return { tone: "critical", title: "Discord not connected", message: "Discord did not answer as expected. Please try again in a minute." };
    case "disabled":
      return { tone: "info", title: "Discord connection is off", message: "Connecting a Discord account is not available right now; the invite link still works." };
    default:
      return null;
  }
}

/**
 * Connecting a Discord account is an OAuth round trip that needs the site's cookies: on the site the
 * forms go to /auth/discord; inside Shopify admin `onConnect` opens it in a new, signed-in tab
 * (app/ui/accounts/handoff.tsx) and disconnecting posts intent=disconnect-discord to the page's own action.
 */
function DiscordConnection({ userName, onConnect }: { userName: string | null; onConnect?: () => void }) {
  if (userName) {
    const row = (
      <InlineStack gap="200" blockAlign="center">
        <Text as="span">Connected as {userName}</Text>
        <Button submit variant="plain">
          Disconnect
        </Button>
      </InlineStack>
    );
    return onConnect ? (
      <Form method="post">
        <input type="hidden" name="intent" value="disconnect-discord" />
        {row}
      </Form>
    ) : (
      <form method="post" action="/auth/discord">
        {row}
      </form>
    );
  }
  if (onConnect) return <div><Button onClick={onConnect}>Connect your Discord account</Button></div>;
  return (
    // A full-page GET: the server redirects to discord.com.
    <form method="get" action="/auth/discord">
      <Button submit>Connect your Discord account</Button>
    </form>
  );
}

export function CommunityCard({ community, onConnectDiscord }: { community: CommunityData; onConnectDiscord?: () => void }) {
  const join = useFetcher();
  return (
    <div id="community">
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            Community
          </Text>
          <Text as="p" tone="subdued">
            Sellers taking the course share what they are testing, their numbers and their ads on our Discord, and help
            each other with suppliers and stores.
          </Text>
          {community.inviteUrl ? (
            <InlineStack gap="200" blockAlign="center">
              <Button
                variant="primary"
                url={community.inviteUrl}
                external
                onClick={() => join.submit({}, { method: "post", action: "/api/community/join" })}
              >
                Join the Discord
              </Button>
              {community.joined ? (
                <Text as="span" tone="subdued">
                  You opened the invite. See you there!
                </Text>
              ) : null}
            </InlineStack>
          ) : (
            <Text as="p">{community.notConfiguredMessage}</Text>
          )}
          {community.oauthEnabled ? <DiscordConnection userName={community.discordUserName} onConnect={onConnectDiscord} /> : null}
        </BlockStack>
      </Card>
    </div>
  );
}

/**
 * The prompt due now, if any. Showing it is recorded once (so it counts as the day's prompt);
 * "Join" opens the invite, "Not now" dismisses it (dismissing the last one ends the prompts).
 */
export function CommunityPopup({ popup, inviteUrl }: { popup: PopupData | null; inviteUrl: string | null }) {
  const shownFetcher = useFetcher();
  const answerFetcher = useFetcher();
  const [open, setOpen] = useState<PopupData | null>(popup);
  const recorded = useRef<number | null>(null);

  useEffect(() => {
    if (!popup || recorded.current === popup.popup) return;
    recorded.current = popup.popup;
    setOpen(popup);
    shownFetcher.submit({ popup: popup.popup, action: "shown" }, { method: "post", action: "/api/community/popup", encType: "application/json" });
  }, [popup, shownFetcher]);

  if (!open || !inviteUrl) return null;
  const answer = (action: "joined" | "dismissed") => {
    answerFetcher.submit({ popup: open.popup, action }, { method: "post", action: "/api/community/popup", encType: "application/json" });
    setOpen(null);
  };
  return (
    <Modal
      open
      title={open.title}
      onClose={() => answer("dismissed")}
      primaryAction={{ content: "Join the Discord", url: inviteUrl, external: true, onAction: () => answer("joined") }}
      secondaryActions={[{ content: open.last ? "No thanks, don't ask again" : "Not now", onAction: () => answer("dismissed") }]}
    >
      <Modal.Section>
        <Text as="p">{open.message}</Text>
      </Modal.Section>
    </Modal>
  );
}
