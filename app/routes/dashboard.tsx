import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation, useNavigate } from "@remix-run/react";
import { Frame, Navigation, TopBar } from "@shopify/polaris";
import { CreditCardIcon, HomeIcon, PersonIcon } from "@shopify/polaris-icons";
import { useState } from "react";
import { auth } from "~/services/index.server";
import { PolarisProvider } from "~/ui/site-shell";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await auth.requireUser(request);
  return { email: user.email };
}

export default function DashboardLayout() {
  const { email } = useLoaderData<typeof loader>();
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
            label: "Billing & credits",
            icon: CreditCardIcon,
            url: "/dashboard/billing",
            selected: location.pathname === "/dashboard/billing",
          },
          {
            label: "Account",
            icon: PersonIcon,
            url: "/dashboard/account",
            selected: location.pathname === "/dashboard/account",
          },
        ]}
      />
    </Navigation>
  );

  return (
    <PolarisProvider>
      <Frame
        topBar={<TopBar showNavigationToggle userMenu={userMenu} onNavigationToggle={() => setNavOpen((o) => !o)} />}
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
