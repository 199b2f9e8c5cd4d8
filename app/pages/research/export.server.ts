// The export downloads (decision 057): GET /api/products/export (the grid's parameters), /api/saved/export,
// /api/tracked/export, /api/competitors/{id}/export and /api/drops/{date}/export, each with ?format=csv|json.
// The caller is the site's cookie, a Shopify session token, or a signed link (?u=&expires=&sig=) that an embedded
// page handed its download button: inside Shopify admin an <a download> carries neither, as with ad videos.
import type { Surface } from "~/domain/shopify/embedded-paths";
import { parseExportFormat } from "~/domain/products/product-export";
import { GRID_PAGE_PARAMS } from "~/domain/products/product-query";
import { researchAccess } from "~/domain/products/research-access";
import { withoutShopifyAdminParams } from "~/domain/shopify/admin-params";
import { AppError } from "~/domain/errors";
import { handleServiceErrors, toErrorResponse } from "~/pages/http/http.server";
import { requireApiUser } from "~/pages/http/site-session.server";
import type { User } from "~/services/accounts/auth.server";
import { auth, productExport } from "~/services/index.server";
import type { ExportList } from "~/services/products/export.server";

/** Parameters that steer the download, not the list: left out of the grid's search. */
const DOWNLOAD_PARAMS = ["format", "u", "expires", "sig", "uid", "page", "pageSize"];

/** The signed link's user, or the signed-in caller. */
async function exportUser(request: Request): Promise<User> {
  const url = new URL(request.url);
  if (!url.searchParams.has("sig")) return requireApiUser(request);
  const userId = await handleServiceErrors(async () => productExport.verifySignedLink(url.pathname, url.searchParams));
  try {
    return await auth.loadUser(userId);
  } catch (error) {
    // The account was deleted since the page handed out the link (Prisma's "record not found").
    if ((error as { code?: unknown }).code !== "P2025") throw error;
    throw toErrorResponse(new AppError(403, "This download link is not valid: open the page again for a new one."));
  }
}

/** The grid's search parameters in a URL (the export's own, the page's and Shopify admin's removed). */
export function gridSearchParams(url: URL): URLSearchParams {
  const params = withoutShopifyAdminParams(url.searchParams);
  for (const key of [...DOWNLOAD_PARAMS, ...GRID_PAGE_PARAMS]) params.delete(key);
  return params;
}

/** The download: a streamed file named for what and when, or a 4xx with a sentence before the first byte. */
export async function exportDownload(request: Request, list: ExportList | ((url: URL) => ExportList)): Promise<Response> {
  const user = await exportUser(request);
  const url = new URL(request.url);
  const file = await handleServiceErrors(async () => {
    const format = parseExportFormat(url.searchParams.get("format"));
    // The request's signal fires when the client goes away (server/remix-request.mjs): the export stops reading.
    return productExport.open({ user, access: researchAccess(user), list: typeof list === "function" ? list(url) : list, format, signal: request.signal });
  });
  return new Response(file.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export type ExportLinks = { csv: string; json: string };

/** A page's download links: plain on the site (the cookie goes along), signed inside Shopify admin. */
export function exportLinks(surface: Surface, userId: string, path: string, params: URLSearchParams = new URLSearchParams()): ExportLinks {
  if (surface === "embedded") return productExport.signedLinks(path, params, userId);
  const link = (format: string) => {
    const out = new URLSearchParams(params);
    out.set("format", format);
    return `${path}?${out.toString()}`;
  };
  return { csv: link("csv"), json: link("json") };
}
