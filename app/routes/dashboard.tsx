import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { Frame, Navigation, TopBar } from "@shopify/polaris";
import {
  BookOpenIcon,
  ChatIcon,
  CreditCardIcon,
  GiftCardIcon,
  HeartIcon,
  HomeIcon,
  LogoTiktokIcon,
  MagicIcon,
  NoteIcon,
  PageIcon,
  PaintBrushFlatIcon,
  PersonIcon,
  PlayCircleIcon,
  ProductIcon,
  StoreIcon,
  TargetIcon,
} from "@shopify/polaris-icons";
import { useState } from "react";
import { requireUser } from "~/pages/site-session.server";
import { loadNotificationsBell } from "~/pages/notifications.server";
import { NotificationsBell } from "~/ui/notifications-bell";
import { PolarisProvider } from "~/ui/site-shell";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { email: user.email, notifications: await loadNotificationsBell(user.id) };
}

export default function DashboardLayout() {
  const { email, notifications } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [navOpen, setNavOpen] = useState(false);

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

  const nav = (
    <Navigation location={location.pathname}>
      <Navigation.Section
        items={[
          {
            label: "Overview",
            icon: HomeIcon,
            url: "/dashboard?location=dashboard",
            selected: location.pathname === "/dashboard",
            onClick: () => navigate("/dashboard?location=dashboard"),
          },
          {
            label: "Products",
            icon: ProductIcon,
            url: "/dashboard/products",
            selected: location.pathname.startsWith("/dashboard/products"),
          },
          {
            label: "Saved",
            icon: HeartIcon,
            url: "/dashboard/saved",
            selected: location.pathname === "/dashboard/saved",
          },
          {
            label: "Product drops",
            icon: GiftCardIcon,
            url: "/dashboard/drops",
            selected: location.pathname === "/dashboard/drops",
          },
          {
            label: "Product pages",
            icon: PageIcon,
            url: "/dashboard/product-pages",
            selected: location.pathname.startsWith("/dashboard/product-pages"),
          },
          {
            label: "AI ads",
            icon: PlayCircleIcon,
            url: "/dashboard/ai-ads",
            selected: location.pathname === "/dashboard/ai-ads",
          },
          {
            label: "Brand kits",
            icon: PaintBrushFlatIcon,
            url: "/dashboard/brand-kits",
            selected: location.pathname === "/dashboard/brand-kits",
          },
          {
            label: "TikToks",
            icon: LogoTiktokIcon,
            url: "/dashboard/tiktoks",
            selected: location.pathname === "/dashboard/tiktoks",
          },
          {
            label: "Research assistant",
            icon: ChatIcon,
            url: "/dashboard/assistant",
            selected: location.pathname === "/dashboard/assistant",
          },
          {
            label: "Glitch mode",
            icon: MagicIcon,
            url: "/dashboard/glitch-mode",
            selected: location.pathname === "/dashboard/glitch-mode",
          },
          {
            label: "Competitors",
            icon: TargetIcon,
            url: "/dashboard/competitors",
            selected: location.pathname.startsWith("/dashboard/competitors"),
          },
          {
            label: "Course",
            icon: BookOpenIcon,
            url: "/dashboard/course",
            selected: location.pathname.startsWith("/dashboard/course"),
          },
          {
            // The community card (invite link, Discord account) lives on the overview.
            label: "Community",
            icon: ChatIcon,
            url: "/dashboard?location=dashboard#community",
            selected: false,
          },
          {
            label: "Billing & credits",
            icon: CreditCardIcon,
            url: "/dashboard/billing",
            selected: location.pathname === "/dashboard/billing",
          },
          {
            label: "Stores & themes",
            icon: StoreIcon,
            url: "/dashboard/stores",
            selected: location.pathname === "/dashboard/stores",
          },
          {
            label: "Account",
            icon: PersonIcon,
            url: "/dashboard/account",
            selected: location.pathname === "/dashboard/account",
          },
          {
            // The page the user came from travels along, so a bug report says where it happened.
            label: "Feedback",
            icon: NoteIcon,
            url:
              location.pathname === "/dashboard/feedback"
                ? "/dashboard/feedback"
                : `/dashboard/feedback?from=${encodeURIComponent(location.pathname + location.search)}`,
            selected: location.pathname === "/dashboard/feedback",
          },
        ]}
      />
    </Navigation>
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
        <Outlet />
      </Frame>
    </PolarisProvider>
  );
}
