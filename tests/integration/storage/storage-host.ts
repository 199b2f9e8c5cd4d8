// One "host" for shared-bucket.test.ts: a separate OS process with the app's composition root, its own
// VIDEO_STORAGE_DIR and whatever STORAGE_* the test gives it, on the test's database. Not a test file itself.
//
// Run: node --import tsx tests/integration/storage/storage-host.ts, with the app's environment set. It prints
// "ready", then answers one JSON line per JSON command on stdin:
//   {"do":"jobs"}                         runs the due picture-fetch and render jobs once: {"ran":N}
//   {"do":"get","route":"image"|"video","path":"/…","file":"…","headers":{…}}
//                                         calls that route's loader as the server would:
//                                         {"status":N,"headers":{…},"sha256":"…","bytes":N,"text":"…"}
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";
import { dbReady } from "~/db.server";
import { loader as videoRoute } from "~/routes/ai-ads.videos.$file";
import { loader as imageRoute } from "~/routes/product-images.stored.$file";
import { PREVIEW_JOB, RENDER_JOB } from "~/services/ai-ads/model.server";
import { jobs } from "~/services/index.server";
import { IMAGES_FETCH_JOB } from "~/services/stored-images.server";

type Command = { do: "jobs" } | { do: "get"; route: "image" | "video"; path: string; file: string; headers?: Record<string, string> };

async function answer(command: Command): Promise<unknown> {
  if (command.do === "jobs") return { ran: (await jobs.runDue({ kinds: [IMAGES_FETCH_JOB, RENDER_JOB, PREVIEW_JOB] })).ran };
  const request = new Request(`https://winning-products.test${command.path}`, { headers: command.headers });
  const loader = command.route === "image" ? imageRoute : videoRoute;
  let response: Response;
  try {
    response = (await loader({ request, params: { file: command.file }, context: {} })) as Response;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    response = thrown;
  }
  const body = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    sha256: createHash("sha256").update(body).digest("hex"),
    bytes: body.length,
    text: /json|text/.test(type) ? body.toString("utf8") : "",
  };
}

await dbReady;
console.log("ready");
for await (const line of createInterface({ input: process.stdin })) {
  try {
    console.log(JSON.stringify(await answer(JSON.parse(line) as Command)));
  } catch (error) {
    console.log(JSON.stringify({ thrown: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }));
  }
}
