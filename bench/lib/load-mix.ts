// The load benches' mix (bench/load.ts, bench/load-compare.ts): as many page requests as API requests, the pages a
// signed-in seller moves between and the APIs they call, three of them on the catalogue's first trending products.

export async function loadMix(base: string, cookie: string): Promise<{ pages: string[]; apis: string[] }> {
  const list = (await (await fetch(`${base}/api/products?sort=trending`, { headers: { cookie } })).json()) as {
    items?: { objectID: string }[];
  };
  const ids = (list.items ?? []).slice(0, 3).map((p) => encodeURIComponent(p.objectID));
  if (ids.length < 3) throw new Error("the catalogue is empty");
  const pages = [
    "/dashboard",
    "/dashboard/products",
    `/dashboard/products/${ids[0]}`,
    "/dashboard/products?sort=trending&page=2",
    `/dashboard/products/${ids[1]}`,
    "/dashboard/drops",
    "/dashboard/competitors",
    "/dashboard/course",
    `/dashboard/products/${ids[2]}`,
    "/dashboard/saved",
  ];
  const apis = [
    "/api/products",
    "/api/products?q=dog&sort=trending",
    `/api/products/${ids[0]}`,
    "/api/me",
    "/api/notifications",
    "/api/products?sort=newest&page=2",
    "/api/drops",
    "/api/course",
    `/api/products/${ids[1]}`,
    "/api/saved-searches",
  ];
  return { pages, apis };
}
