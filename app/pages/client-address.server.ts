// Where a request comes from, as the proxy in front of us reports it. Null when no proxy says: one
// shared stand-in address would let a few wrong passwords lock every visitor out. Behind a proxy that
// appends to X-Forwarded-For, configure it to overwrite the header (or set X-Real-IP), since a client
// can send its own first entry.
export function clientIp(request: Request): string | null {
  return request.headers.get("x-real-ip")?.trim() || request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
}

/** Two-letter country from the CDN's header, when one is in front of us. */
export function clientCountry(request: Request): string | null {
  const c = request.headers.get("cf-ipcountry") ?? request.headers.get("x-country-code");
  return c && /^[A-Z]{2}$/.test(c) && c !== "XX" ? c : null;
}
