// Where a request comes from (docs/decisions/064). Behind a proxy we trust (TRUST_PROXY=on), the address the proxy
// reports: X-Real-IP, else the first X-Forwarded-For entry (configure the proxy to overwrite that header, since a
// client can send its own first entry). Otherwise the socket's address, which server/remix-request.mjs puts in
// SOCKET_ADDRESS_HEADER (overwriting anything a client sent under that name): a client's own X-Forwarded-For is
// then ignored, so it cannot step around a per-address limit. Null when neither is known (the dev server, a test
// calling a route without a header): one shared stand-in address would let a few wrong passwords lock every
// visitor out, so per-address limits then do not apply.
import { getEnv } from "~/env.server";

export const SOCKET_ADDRESS_HEADER = "x-socket-address";

export function clientIp(request: Request): string | null {
  if (getEnv().TRUST_PROXY === "on") {
    return request.headers.get("x-real-ip")?.trim() || request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || null;
  }
  const socket = request.headers.get(SOCKET_ADDRESS_HEADER)?.trim();
  if (!socket) return null;
  // An IPv4 client on a dual-stack socket: "::ffff:203.0.113.9" is 203.0.113.9.
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(socket) ? socket.slice(7) : socket;
}

/** Two-letter country from the CDN's header, when one is in front of us. */
export function clientCountry(request: Request): string | null {
  const c = request.headers.get("cf-ipcountry") ?? request.headers.get("x-country-code");
  return c && /^[A-Z]{2}$/.test(c) && c !== "XX" ? c : null;
}
