// The site's pages and their twins inside Shopify admin: the one list of "site path -> embedded path".
// Links written once in shared content (a lesson's "try it" link, links in lesson text) go through
// embeddedTwin, and the shared page components get their surface's paths from sitePathOn
// (app/ui/research/research-paths.ts), so that inside the admin every link stays in the embedded app: its
// iframe has no site cookie, so a /dashboard link would land on the site's sign-in.

/** Which surface a shared page is rendered on: the website or the embedded app in Shopify admin. */
export type Surface = "site" | "embedded";

interface Twin {
  site: string;
  embedded: string;
  /** Sub-pages map too (/dashboard/course/3 -> /app/course/3). */
  withSubpages: boolean;
}

const TWINS: Twin[] = [
  { site: "/dashboard", embedded: "/app", withSubpages: false },
  { site: "/dashboard/products", embedded: "/app/products", withSubpages: true },
  { site: "/dashboard/saved", embedded: "/app/saved", withSubpages: false },
  { site: "/dashboard/product-pages", embedded: "/app/product-pages", withSubpages: false },
  { site: "/dashboard/ai-ads", embedded: "/app/ai-ads", withSubpages: false },
  { site: "/dashboard/brand-kits", embedded: "/app/brand-kits", withSubpages: false },
  { site: "/dashboard/tiktoks", embedded: "/app/tiktoks", withSubpages: false },
  { site: "/dashboard/glitch-mode", embedded: "/app/glitch-mode", withSubpages: false },
  { site: "/dashboard/assistant", embedded: "/app/assistant", withSubpages: false },
  { site: "/dashboard/drops", embedded: "/app/drops", withSubpages: false },
  { site: "/dashboard/competitors", embedded: "/app/competitors", withSubpages: true },
  { site: "/dashboard/course", embedded: "/app/course", withSubpages: true },
  { site: "/dashboard/billing", embedded: "/app/billing", withSubpages: false },
  { site: "/dashboard/stores", embedded: "/app/stores", withSubpages: false },
  { site: "/dashboard/account", embedded: "/app/settings", withSubpages: false },
  // Plans are chosen on the embedded Billing & credits page (checkout opens on the site from there).
  { site: "/choose-plan", embedded: "/app/billing", withSubpages: false },
];

/** Parameters only the site's pages read (the dashboard's ?location=dashboard). */
const SITE_ONLY_PARAMS = ["location"];

/**
 * The embedded app's page for a site path, with the same query (and fragment), or null when the
 * embedded app has no twin for it. Anything that is not a path of ours is null too.
 */
export function embeddedTwin(sitePath: string): string | null {
  if (!sitePath.startsWith("/") || sitePath.startsWith("//")) return null;
  const url = new URL(sitePath, "https://site.invalid");
  const twin = TWINS.find((t) => url.pathname === t.site || (t.withSubpages && url.pathname.startsWith(`${t.site}/`)));
  if (!twin) return null;
  for (const name of SITE_ONLY_PARAMS) url.searchParams.delete(name);
  const query = url.searchParams.toString();
  return `${twin.embedded}${url.pathname.slice(twin.site.length)}${query ? `?${query}` : ""}${url.hash}`;
}

/** A site page's path on `surface`: itself on the site, its twin in the embedded app (which must have one). */
export function sitePathOn(surface: Surface, sitePath: string): string {
  if (surface === "site") return sitePath;
  const twin = embeddedTwin(sitePath);
  if (twin === null) throw new Error(`${sitePath} has no page in the embedded app`);
  return twin;
}

/** Where the bell opens notification `id` on `surface`: marks it read, then goes to what it is about. */
export function notificationOpenPath(surface: Surface, id: number): string {
  return `${surface === "site" ? "/dashboard" : "/app"}/notifications/${id}`;
}
