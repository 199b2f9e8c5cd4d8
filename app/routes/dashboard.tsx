import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { Frame, TopBar } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { isDemoAccount } from "~/domain/accounts/demo-account";
import { requireUser } from "~/pages/http/site-session.server";
import { loadNotificationsBell } from "~/pages/notifications/notifications.server";
import { AccountBanners } from "~/ui/accounts/account-banners";
import { DashboardNav, type DashboardNavItem } from "~/ui/shared/dashboard-nav";
import { LegalFooter } from "~/ui/shared/legal-pages";
import { NotificationsBell } from "~/ui/shared/notifications-bell";
import { PolarisProvider } from "~/ui/shared/site-shell";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    email: user.email,
    notifications: await loadNotificationsBell(user.id),
    emailVerified: user.emailVerifiedAt !== null,
    demo: isDemoAccount(user.email),
  };
}

export default function DashboardLayout() {
  const { email, notifications, emailVerified, demo } = useLoaderData<typeof loader>();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [navOpen, setNavOpen] = useState(false);
  // The phone's menu drawer closes on every page change (a tap on a link in it, the back button), so its
  // backdrop never stays over the page (and the bell) after the user has gone where they tapped.
  useEffect(() => {
    setNavOpen(false);
  }, [location.pathname, location.search, location.hash]);

  const userMenu = (
    <TopBar.UserMenu
      name={email}
      initials={email.slice(0, 1).toUpperCase()}
      open={menuOpen}
      onToggle={() => setMenuOpen((o) => !o)}
      actions={[
        {
          items: [
            {
              content: "Log out",
              onAction: () => {
                const form = document.createElement("form");
                form.method = "post";
                form.action = "/logout";
                document.body.appendChild(form);
                form.submit();
              },
            },
          ],
        },
      ]}
    />
  );

  /** A page of the site's nav, selected on its own path (and, for sections with pages under them, below it). */
  const page = (label: string, icon: DashboardNavItem["icon"], url: string, below = false): DashboardNavItem => ({
    label,
    icon,
    url,
    selected: below ? location.pathname.startsWith(url) : location.pathname === url,
  });

  const nav = (
    // onDismiss: a tap on an item closes the drawer at once, even on the page already open.
    <DashboardNav
      pathname={location.pathname}
      onDismiss={() => setNavOpen(false)}
      items={[
        {
          label: "Overview",
          icon: "HomeIcon",
          url: "/dashboard?location=dashboard",
          selected: location.pathname === "/dashboard",
        },
        page("Products", "ProductIcon", "/dashboard/products", true),
        page("Saved", "HeartIcon", "/dashboard/saved"),
        page("Product drops", "GiftCardIcon", "/dashboard/drops"),
        page("Product pages", "PageIcon", "/dashboard/product-pages", true),
        page("AI ads", "PlayCircleIcon", "/dashboard/ai-ads"),
        page("Brand kits", "PaintBrushFlatIcon", "/dashboard/brand-kits"),
        page("TikToks", "LogoTiktokIcon", "/dashboard/tiktoks"),
        page("Research assistant", "ChatIcon", "/dashboard/assistant"),
        page("Glitch mode", "MagicIcon", "/dashboard/glitch-mode"),
        page("Competitors", "TargetIcon", "/dashboard/competitors", true),
        page("Course", "BookOpenIcon", "/dashboard/course", true),
        {
          // The community card (invite link, Discord account) lives on the overview.
          label: "Community",
          icon: "ChatIcon",
          url: "/dashboard?location=dashboard#community",
          selected: false,
        },
        page("Billing & credits", "CreditCardIcon", "/dashboard/billing"),
        page("Stores & themes", "StoreIcon", "/dashboard/stores"),
        page("Account", "PersonIcon", "/dashboard/account"),
        {
          // The page the user came from travels along, so a bug report says where it happened.
          label: "Feedback",
          icon: "NoteIcon",
          url:
            location.pathname === "/dashboard/feedback"
              ? "/dashboard/feedback"
              : `/dashboard/feedback?from=${encodeURIComponent(location.pathname + location.search)}`,
          selected: location.pathname === "/dashboard/feedback",
        },
      ]}
    />
  );

  return (
    <PolarisProvider>
      <Frame
        topBar={
          <TopBar
            showNavigationToggle
            userMenu={userMenu}
            secondaryMenu={
              <div
                style={{ display: "flex", alignItems: "center", height: "100%", paddingInline: "var(--p-space-200)" }}
              >
                <NotificationsBell data={notifications} surface="site" onDark />
              </div>
            }
            onNavigationToggle={() => setNavOpen((o) => !o)}
          />
        }
        navigation={nav}
        showMobileNavigation={navOpen}
        onNavigationDismiss={() => setNavOpen(false)}
        logo={{ topBarSource: "/favicon.svg", width: 28, url: "/", accessibilityLabel: "Winning Products" }}
      >
        <AccountBanners email={email} emailVerified={emailVerified} demo={demo} />
        <Outlet />
        <LegalFooter />
      </Frame>
    </PolarisProvider>
  );
}
