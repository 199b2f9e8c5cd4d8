// Local stand-ins of the marketing services on 127.0.0.1, speaking their documented shapes
// (docs/decisions/032): Klaviyo's JSON:API (revision header, profile import 200/201 with the profile id,
// Create Event 202 that keeps one event per unique_id, data-privacy deletion jobs 202), PostHog's /batch/
// (gzip or plain JSON, one event per uuid), Hyros's leads endpoint (API-Key header, { request_id, result })
// and AnyTrack's custom integration endpoint (one conversion per transaction_id). Answers can be scripted
// per path (status, Retry-After, a delay) to test what the outbox does with them.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeMarketing {
  url: string;
  received: Received[];
  /** Requests to a path (without the query string). */
  to(path: string): Received[];
  /** The next answers for a path, used in order before the normal ones. */
  script(path: string, ...answers: ScriptedAnswer[]): void;
  /** Klaviyo events kept (one per unique_id), PostHog events kept (one per uuid), AnyTrack conversions kept. */
  kept: { klaviyoEvents: Map<string, unknown>; posthogEvents: Map<string, unknown>; anytrack: Map<string, unknown> };
  /** Milliseconds every answer waits (a slow service). */
  delayMs: number;
  close(): Promise<void>;
}

export const KLAVIYO_REVISION = "2026-07-15";

export async function startFakeMarketing(options: { delayMs?: number; record?: boolean; port?: number } = {}): Promise<FakeMarketing> {
  const received: Received[] = [];
  const scripts = new Map<string, ScriptedAnswer[]>();
  const kept = { klaviyoEvents: new Map<string, unknown>(), posthogEvents: new Map<string, unknown>(), anytrack: new Map<string, unknown>() };
  let profileCounter = 0;
  const profiles = new Map<string, string>();
  const fake = { delayMs: options.delayMs ?? 0 } as FakeMarketing;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let raw = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") raw = gunzipSync(raw);
      let body: unknown = null;
      try {
        body = raw.length ? JSON.parse(raw.toString("utf8")) : null;
      } catch {
        body = raw.toString("utf8");
      }
      const path = (req.url ?? "/").split("?")[0];
      if (options.record !== false) received.push({ method: req.method ?? "", path, headers: req.headers, body });
      const answer = (status: number, payload?: unknown, headers: Record<string, string> = {}) =>
        setTimeout(() => {
          res.writeHead(status, { "content-type": path.startsWith("/api/") ? "application/vnd.api+json" : "application/json", ...headers });
          res.end(payload === undefined ? "" : JSON.stringify(payload));
        }, fake.delayMs);
      const scripted = scripts.get(path)?.shift();
      if (scripted) return answer(scripted.status, scripted.body ?? { errors: [{ detail: `scripted ${scripted.status}` }] }, scripted.headers);

      if (path.startsWith("/api/")) {
        if (req.headers.revision !== KLAVIYO_REVISION || !String(req.headers.authorization ?? "").startsWith("Klaviyo-API-Key ")) {
          return answer(400, { errors: [{ code: "invalid", detail: "missing revision or API key" }] });
        }
        const data = (body as { data?: { type?: string; id?: string; attributes?: Record<string, unknown> } })?.data;
        if (path === "/api/profile-import" && data?.type === "profile") {
          const email = String(data.attributes?.email ?? "");
          const existing = data.id ?? profiles.get(email);
          const id = existing ?? `01PROFILE${String(++profileCounter).padStart(4, "0")}`;
          profiles.set(email, id);
          return answer(existing ? 200 : 201, { data: { type: "profile", id, attributes: data.attributes } });
        }
        if (path === "/api/events" && data?.type === "event") {
          const uniqueId = String(data.attributes?.unique_id ?? Math.random());
          if (!kept.klaviyoEvents.has(uniqueId)) kept.klaviyoEvents.set(uniqueId, data.attributes);
          return answer(202);
        }
        if (path === "/api/data-privacy-deletion-jobs" && data?.type === "data-privacy-deletion-job") return answer(202);
        return answer(404, { errors: [{ detail: "not found" }] });
      }
      if (path === "/batch/") {
        const batch = (body as { api_key?: string; batch?: { uuid?: string }[] }) ?? {};
        if (!batch.api_key) return answer(401, { type: "authentication_error" });
        for (const e of batch.batch ?? []) if (e.uuid && !kept.posthogEvents.has(e.uuid)) kept.posthogEvents.set(e.uuid, e);
        return answer(200, { status: "Ok" });
      }
      if (path === "/v1/api/v1.0/leads") {
        if (!req.headers["api-key"]) return answer(401, { result: "ERROR", message: ["Wrong Api-Key or no provided."] });
        return answer(200, { request_id: `req_${received.length}`, result: "OK" });
      }
      const anytrack = /^\/([^/]+)\/collect\/([^/]+)$/.exec(path);
      if (anytrack) {
        const c = body as { click_id?: string; event_name?: string; transaction_id?: string };
        if (!c?.click_id) return answer(400, { error: "Missing click_id, ref_id and email" });
        const key = `${c.event_name}:${c.transaction_id}`;
        if (!kept.anytrack.has(key)) kept.anytrack.set(key, c);
        return answer(200, { status: "ok" });
      }
      answer(404, { error: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    received,
    to: (path: string) => received.filter((r) => r.path === path),
    script: (path: string, ...answers: ScriptedAnswer[]) => scripts.set(path, [...(scripts.get(path) ?? []), ...answers]),
    kept,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
