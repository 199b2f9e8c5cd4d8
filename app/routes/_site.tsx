import { Outlet, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { SiteShell } from "~/ui/shared/site-shell";

export default function SiteLayout() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <SiteShell signedIn={Boolean(root?.signedIn)}>
      <Outlet />
    </SiteShell>
  );
}
