// ALGOLIA_HOSTS (a comma list of http(s)://host[:port]) as the algoliasearch client's host list. Read by
// app/env.server.ts at start-up (a bad value stops the server with its message) and by the Algolia adapter.

export interface AlgoliaHost {
  url: string;
  port?: number;
  protocol: "http" | "https";
  accept: "read" | "write" | "readWrite";
}

/**
 * ALGOLIA_HOSTS: comma-separated base URLs ("http://127.0.0.1:7700,https://x.algolia.net"), each
 * used for reads and writes. Throws on anything that is not an http(s) URL without a path.
 */
export function parseAlgoliaHosts(value: string | undefined): AlgoliaHost[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((raw) => {
    const text = raw.trim();
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new Error(`ALGOLIA_HOSTS: "${text}" is not a URL like http://127.0.0.1:7700`);
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || (url.pathname !== "/" && url.pathname !== "")) {
      throw new Error(`ALGOLIA_HOSTS: "${text}" must be http(s)://host[:port] with no path`);
    }
    return {
      url: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      protocol: url.protocol === "http:" ? "http" : "https",
      accept: "readWrite",
    };
  });
}
