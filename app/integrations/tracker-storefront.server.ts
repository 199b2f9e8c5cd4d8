// The competitor tracker's reads as configured from the environment: ONE SSRF-safe fetcher with
// TRACKER_ALLOW_HOSTS (host:port entries it may reach although private) and TRACKER_RESOLVE ("name=address",
// "*.test=127.0.0.1") for local stand-in stores in development and tests (names it maps resolve without DNS and
// their catalogues are read over plain http), shared by the storefront reader and the measured catalogue's
// picture fetcher and the product pages read for review counts, so a stand-in store's pictures and pages resolve like
// its catalogue. Both settings are empty in production. A stand-in is paced like any store (one request a second)
// unless TRACKER_STANDIN_GAP_MS gives stand-ins a gap of their own (the tests' local stores); a store DNS finds never is.
import dns from "node:dns";
import { createSafeFetcher, type HostLookup, type SafeFetcher } from "~/integrations/safe-fetch.server";
import { createHostRateLimiter, createShopifyStorefront, type ShopifyStorefront } from "~/integrations/shopify-storefront.server";
import { createStorefrontReviews, type StorefrontReviews } from "~/integrations/storefront-reviews.server";

export interface TrackerStorefrontOptions {
  /** The page named in the User-Agent so store owners can reach us. */
  contactUrl: string;
  /** The User-Agent's product token. */
  appName: string;
  /** "host:port" entries it may reach although private (parseAllowHosts of TRACKER_ALLOW_HOSTS). */
  allowHosts?: readonly string[];
  resolve?: string;
  /**
   * Least ms between two requests to one stand-in store (a host `resolve` maps), and the first backoff after its
   * 5xx; unset: a second, as for every store. Never applies to a store DNS finds.
   */
  standInGapMs?: number;
  /** Told once when either setting is in force (they open private addresses to the reader). */
  warn?: (fields: object, message: string) => void;
}

interface Mapping {
  name: string;
  address: string;
}

export function parseTrackerResolve(value: string | undefined): Mapping[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      const [name = "", address = ""] = entry.split("=");
      return { name, address };
    });
}

export interface TrackerReads {
  /** The fetcher every tracker read goes through (catalogues, and listings' pictures). */
  fetcher: SafeFetcher;
  storefront: ShopifyStorefront;
  /** Listings' product pages read for their review counts (decision 094), over the same fetcher and pacing. */
  reviews: StorefrontReviews;
}

export function createTrackerReads(options: TrackerStorefrontOptions): TrackerReads {
  const allowHosts = options.allowHosts ?? [];
  const mappings = parseTrackerResolve(options.resolve);
  const mapped = (host: string): string | null => {
    const name = host.toLowerCase().replace(/:\d+$/, "");
    const hit = mappings.find((m) => (m.name.startsWith("*.") ? name.endsWith(m.name.slice(1)) : name === m.name));
    return hit?.address ?? null;
  };
  if (allowHosts.length > 0 || mappings.length > 0) {
    options.warn?.(
      { allowHosts, resolve: options.resolve ?? null },
      "TRACKER_ALLOW_HOSTS / TRACKER_RESOLVE are set: the store reader may reach these private addresses (local stand-ins only)",
    );
  }
  const lookup: HostLookup | undefined =
    mappings.length === 0
      ? undefined
      : async (hostname) => {
          const address = mapped(hostname);
          if (address) return [{ address, family: address.includes(":") ? 6 : 4 }];
          const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
          return found.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
        };
  const fetcher = createSafeFetcher({ contactUrl: options.contactUrl, appName: options.appName, allowHosts, lookup });
  const publicStores = createShopifyStorefront({ fetcher });
  const gap = options.standInGapMs;
  const standInLimiter = gap === undefined ? undefined : createHostRateLimiter({ requestsPerSecond: 1000 / gap });
  const localStores = createShopifyStorefront({ fetcher, protocol: "http:", rateLimiter: standInLimiter, backoffMs: gap });
  const readerFor = (domain: string) => (mapped(domain) ? localStores : publicStores);
  const publicPages = createStorefrontReviews({ fetcher });
  const localPages = createStorefrontReviews({ fetcher, protocol: "http:", limiter: standInLimiter, backoffMs: gap });
  return {
    fetcher,
    storefront: {
      probe: (domain) => readerFor(domain).probe(domain),
      snapshot: (domain) => readerFor(domain).snapshot(domain),
      read: (domain, memory) => readerFor(domain).read(domain, memory),
    },
    reviews: {
      read: (domain, handles, memory, keepGoing) => (mapped(domain) ? localPages : publicPages).read(domain, handles, memory, keepGoing),
    },
  };
}

export function createTrackerStorefront(options: TrackerStorefrontOptions): ShopifyStorefront {
  return createTrackerReads(options).storefront;
}
