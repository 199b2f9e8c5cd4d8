// A local HTTP server on 127.0.0.1 that speaks the parts of Algolia's Search REST API our adapter uses
// (https://www.algolia.com/doc/rest-api/search): POST /1/indexes/{index}/query, POST
// /1/indexes/{index}/batch and PUT /1/indexes/{index}/settings. It records every request (method,
// path, headers, JSON body, gzip or not) and answers with Algolia's response shapes. Queries are
// answered by the test (`onQuery`), because what matters is what the adapter does with an answer.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import type { AlgoliaHost } from "~/integrations/algolia.server";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

export interface QueryAnswer {
  hits: { objectID: string }[];
  nbHits?: number;
  exhaustive?: { nbHits?: boolean };
  facets?: Record<string, Record<string, number>>;
  /** Answer with this HTTP status and message instead (e.g. 403 for a wrong key). */
  status?: number;
  message?: string;
}

export interface FakeAlgolia {
  hosts: AlgoliaHost[];
  url: string;
  requests: RecordedRequest[];
  /** Records written by batch requests (addObject / deleteObject), by index then objectID. */
  records: Map<string, Map<string, Record<string, unknown>>>;
  onQuery: (index: string, body: Record<string, unknown>) => QueryAnswer;
  close(): Promise<void>;
}

export async function startFakeAlgolia(): Promise<FakeAlgolia> {
  let taskID = 100;
  const fake: FakeAlgolia = {
    hosts: [],
    url: "",
    requests: [],
    records: new Map(),
    onQuery: () => ({ hits: [], nbHits: 0 }),
    close: async () => undefined,
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = (req.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      fake.requests.push({ method: req.method ?? "", path: url.pathname, query: url.searchParams, headers: req.headers, body });

      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(payload));
      };
      const match = /^\/1\/indexes\/([^/]+)\/(query|batch|settings)$/.exec(url.pathname);
      if (!match) return reply(404, { message: `Unknown path ${url.pathname}`, status: 404 });
      const index = decodeURIComponent(match[1]);
      const action = match[2];

      if (action === "query" && req.method === "POST") {
        const answer = fake.onQuery(index, body ?? {});
        if (answer.status) return reply(answer.status, { message: answer.message ?? "error", status: answer.status });
        const hitsPerPage = Number(body?.hitsPerPage ?? 20);
        const nbHits = answer.nbHits ?? answer.hits.length;
        return reply(200, {
          hits: answer.hits.slice(0, hitsPerPage),
          nbHits,
          page: 0,
          nbPages: Math.ceil(nbHits / Math.max(1, hitsPerPage)),
          hitsPerPage,
          exhaustiveNbHits: answer.exhaustive?.nbHits ?? true,
          exhaustive: { nbHits: answer.exhaustive?.nbHits ?? true },
          ...(answer.facets ? { facets: answer.facets } : {}),
          processingTimeMS: 1,
          query: String(body?.query ?? ""),
          params: "",
        });
      }
      if (action === "batch" && req.method === "POST") {
        const stored = fake.records.get(index) ?? new Map<string, Record<string, unknown>>();
        fake.records.set(index, stored);
        const requests = (body?.requests ?? []) as { action: string; body: Record<string, unknown> }[];
        for (const r of requests) {
          const objectID = String(r.body.objectID);
          if (r.action === "addObject" || r.action === "updateObject") stored.set(objectID, r.body);
          else if (r.action === "deleteObject") stored.delete(objectID);
          else return reply(400, { message: `Unsupported batch action ${r.action}`, status: 400 });
        }
        return reply(200, { taskID: ++taskID, objectIDs: requests.map((r) => String(r.body.objectID)) });
      }
      if (action === "settings" && req.method === "PUT") {
        return reply(200, { taskID: ++taskID, updatedAt: new Date().toISOString() });
      }
      return reply(405, { message: "Method not allowed", status: 405 });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.hosts = [{ url: "127.0.0.1", port, protocol: "http", accept: "readWrite" }];
  fake.close = () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
  return fake;
}
