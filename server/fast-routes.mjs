// Resource routes with a fixed path, served without matching the whole route tree (server/index.mjs,
// docs/decisions/017). Plain JavaScript: the server runs without a build step of its own.

/** Full paths of the resource routes (no UI, no error boundary) that have a loader and no dynamic segment. */
export function fixedResourceRoutes(routes) {
  const fullPath = (route) => {
    const parts = [];
    for (let r = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
      if (r.path) parts.unshift(r.path);
    }
    return `/${parts.join("/")}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
  };
  const byPath = new Map();
  const seen = new Set();
  for (const route of Object.values(routes)) {
    if (route.index || !route.path) continue;
    const full = fullPath(route);
    if (seen.has(full)) {
      byPath.delete(full); // two routes on one path: leave the choice to Remix
      continue;
    }
    seen.add(full);
    const { module } = route;
    if (/[:*$]/.test(full) || module.default || module.ErrorBoundary || !module.loader) continue;
    byPath.set(full, route);
  }
  return byPath;
}

/** Remix's handleResourceRequest for one known route: the loader's Response, a thrown Response, or a 500. */
export async function callLoader(route, request, reportError) {
  try {
    const result = await route.module.loader({ request, params: {}, context: {} });
    return result instanceof Response ? result : Response.json(result);
  } catch (error) {
    if (error instanceof Response) {
      error.headers.set("X-Remix-Catch", "yes");
      return error;
    }
    reportError(error, request);
    return new Response("Unexpected Server Error", { status: 500, headers: { "content-type": "text/plain" } });
  }
}

