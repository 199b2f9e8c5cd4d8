// A real HTTP server on 127.0.0.1 in front of Remix route handlers, for clients that need a socket (the MCP SDK's
// own client): each request becomes a web Request as Remix's Express adapter makes it (URL from the Host header),
// goes to the route's loader (GET/HEAD) or action (anything else), and its Response is written back as it is.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

type Handler = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;
export interface RouteModule {
  loader?: Handler;
  action?: Handler;
}

export async function startRouteServer(routes: Record<string, RouteModule>) {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const method = req.method ?? "GET";
      const request = new Request(url, { method, headers, body: method === "GET" || method === "HEAD" || chunks.length === 0 ? undefined : Buffer.concat(chunks) });
      const route = routes[url.pathname];
      const handler = route && (method === "GET" || method === "HEAD" ? route.loader : route.action);
      let response: Response;
      if (!handler) response = new Response("not found", { status: 404 });
      else {
        try {
          response = (await handler({ request, params: {}, context: {} })) as Response;
        } catch (thrown) {
          if (thrown instanceof Response) response = thrown;
          else throw thrown;
        }
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
