// /dashboard: the site's overview (controller app/pages/research/dashboard-home.server.ts, component
// app/ui/research/dashboard-home.tsx).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { loadDashboardHome } from "~/pages/research/dashboard-home.server";
import { requireUser } from "~/pages/http/site-session.server";
import { DashboardHome } from "~/ui/research/dashboard-home";

export const meta: MetaFunction = () => [{ title: "Dashboard · Winning Products" }];

export async function loader({ request }: LoaderFunctionArgs) {
  return loadDashboardHome(await requireUser(request));
}

export default function DashboardIndex() {
  const [params] = useSearchParams();
  return <DashboardHome data={useLoaderData<typeof loader>()} params={params} />;
}
