// The production server (the build, node server/index.mjs as `npm start` runs it) with STORAGE_BUCKET set
// (decision 097): a stored picture that is only in the bucket is served over a real socket with its year-long
// cache, and a missing one is a 404, with the SDK loaded from the build's own chunk.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createS3Client, createS3FileStorage } from "~/integrations/file-storage-s3.server";
import { png } from "../../helpers/png";
import { ensureProductionBuild, rawRequest, startServer, type RunningServer } from "../../helpers/production-server";
import { startLocalS3, type LocalS3 } from "../../helpers/s3-server";

const PICTURE = png(40, 30, [250, 200, 0]);
const NAME = `${createHash("sha256").update(PICTURE).digest("hex")}.png`;

let s3: LocalS3;
let server: RunningServer;

beforeAll(async () => {
  ensureProductionBuild();
  s3 = await startLocalS3(["served"]);
  const settings = s3.settings("served");
  await createS3FileStorage({ client: createS3Client(settings), settings, prefix: "images/" }).put(NAME, PICTURE);
  server = await startServer({ ...s3.env("served"), VIDEO_STORAGE_DIR: "/nonexistent/not-used" });
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await s3?.stop();
});

describe("the production server on a bucket", () => {
  it("serves a picture that is only in the bucket, and 404 for one that is not", async () => {
    const served = await rawRequest(server.port, { path: `/product-images/stored/${NAME}` });
    expect(served.status).toBe(200);
    expect(served.body.equals(PICTURE)).toBe(true);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const missing = await rawRequest(server.port, { path: `/product-images/stored/${"0".repeat(64)}.png` });
    expect(missing.status).toBe(404);
  });
});
