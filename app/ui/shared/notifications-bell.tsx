// The notifications bell of both shells: an icon button with the unread count that opens the newest
// notifications (title, body, link, time) and "Mark all read". Data comes from the shell's loader
// (app/pages/notifications/notifications.server.ts); marking read is POST /api/notifications/read with fetch (the site's
// cookie goes along; inside Shopify admin App Bridge adds the session token), then the loaders run again.
// Each notification is a link to /dashboard/notifications/{id} or /app/notifications/{id}, which marks it
// read and opens what it is about on the same surface (its embedded twin inside the admin).
import type { SerializeFrom } from "@remix-run/node";
import { useRevalidator } from "@remix-run/react";
import { ActionList, Badge, BlockStack, Box, Button, InlineStack, Popover, Scrollable, Text } from "@shopify/polaris";
import { NotificationIcon } from "@shopify/polaris-icons";
import { useCallback, useState } from "react";
import { notificationOpenPath, type Surface } from "~/domain/shopify/embedded-paths";
import type { NotificationsBellData } from "~/pages/notifications/notifications.server";

type Data = SerializeFrom<NotificationsBellData>;

const timeFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** `onDark`: on the site's dark top bar the icon is white. */
export function NotificationsBell({
  data,
  surface,
  onDark = false,
}: {
  data: Data;
  surface: Surface;
  onDark?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [markedAll, setMarkedAll] = useState(false);
  const revalidator = useRevalidator();
  const unread = markedAll ? 0 : data.unread;

  const markRead = useCallback(
    async (ids?: number[]) => {
      setError(null);
      try {
        const response = await fetch("/api/notifications/read", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(ids ? { ids } : {}),
        });
        if (!response.ok) {
          const body = (await response.json().catch(() => ({}))) as { error?: string };
          setError(body.error ?? `Marking read failed (${response.status}).`);
          return false;
        }
        revalidator.revalidate();
        return true;
      } catch {
        setError("The request did not reach the server. Check your connection and try again.");
        return false;
      }
    },
    [revalidator],
  );

  const label = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
  const activator = (
    <span style={{ position: "relative", display: "inline-flex", color: onDark ? "#fff" : "var(--p-color-icon)" }}>
      <Button
        icon={NotificationIcon}
        accessibilityLabel={label}
        onClick={() => setOpen((o) => !o)}
        variant="monochromePlain"
      />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notifications-unread"
          style={{
            position: "absolute",
            top: -4,
            right: -4,
            minWidth: 18,
            height: 18,
            padding: "0 4px",
            borderRadius: 9,
            background: "var(--p-color-bg-fill-critical)",
            color: "var(--p-color-text-on-color, #fff)",
            fontSize: 11,
            lineHeight: "18px",
            textAlign: "center",
            pointerEvents: "none",
          }}
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </span>
  );

  return (
    <Popover
      active={open}
      activator={activator}
      onClose={() => setOpen(false)}
      preferredAlignment="right"
      ariaHaspopup="dialog"
    >
      <div style={{ width: "min(360px, calc(100vw - 32px))" }} role="dialog" aria-label="Notifications">
        <Box padding="300" borderBlockEndWidth="025" borderColor="border">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingSm">
              Notifications
            </Text>
            <Button
              variant="plain"
              disabled={unread === 0}
              onClick={() => {
                void markRead().then((ok) => setMarkedAll(ok));
              }}
            >
              Mark all read
            </Button>
          </InlineStack>
          {error ? (
            <Text as="p" variant="bodySm" tone="critical">
              {error}
            </Text>
          ) : null}
        </Box>
        {data.items.length === 0 ? (
          <Box padding="300">
            <Text as="p" tone="subdued">
              No notifications yet. Launches and price drops of the stores you follow show here.
            </Text>
          </Box>
        ) : (
          <Scrollable style={{ maxHeight: 420 }}>
            <ActionList
              items={data.items.map((n) => {
                const isUnread = !markedAll && n.readAt === null;
                return {
                  id: String(n.id),
                  content: n.title,
                  helpText: (
                    <BlockStack gap="050">
                      <span>{n.body}</span>
                      <span>{`${timeFormat.format(new Date(n.createdAt))} UTC`}</span>
                    </BlockStack>
                  ),
                  suffix: isUnread ? <Badge tone="info">New</Badge> : undefined,
                  truncate: false,
                  // A real link: opening it marks the notification read and lands on what it is about,
                  // on this surface (app/pages/notifications/notifications.server.ts).
                  url: notificationOpenPath(surface, n.id),
                  onAction: () => setOpen(false),
                };
              })}
            />
          </Scrollable>
        )}
      </div>
    </Popover>
  );
}
