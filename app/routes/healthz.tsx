import { health } from "~/services/index.server";

export async function loader() {
  const result = await health.check();
  return Response.json(result.ok ? { ok: true } : { ok: false, error: "database unreachable" }, {
    status: result.ok ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
