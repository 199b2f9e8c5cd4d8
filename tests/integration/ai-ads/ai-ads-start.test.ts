// The AI-ads service re-queues renders left running once per process (start()). A start that failed (the
// database busy or away at that moment) is tried again by the next caller, not remembered: the server now keeps
// running after such a failure (docs/decisions/038), and a remembered failure would fail every AI-ads page until
// a restart.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { builtInWriter } from "~/integrations/ai-text.server";
import { createFileStorage } from "~/integrations/file-storage.server";
import { createBuiltInRenderer } from "~/integrations/video-render.server";
import { createAiAds } from "~/services/ai-ads.server";
import { createJobs } from "~/services/jobs.server";

describe("aiAds.start", () => {
  it("is tried again after a failure instead of failing every later call", async () => {
    const aiAds = createAiAds({
      db,
      ai: builtInWriter,
      renderer: createBuiltInRenderer(),
      storage: createFileStorage(mkdtempSync(path.join(tmpdir(), "ai-ads-start-"))),
      urlSecret: "test",
      jobs: createJobs({ db, ownerId: "ai-ads-start-test" }),
      video: { width: 180, height: 320, fps: 5 },
    });
    // The table out of reach for a moment, as a locked or unavailable database would be.
    await db.$executeRawUnsafe(`ALTER TABLE "AiAd" RENAME TO "AiAdAway"`);
    try {
      await expect(aiAds.start()).rejects.toThrow(/AiAd/);
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE "AiAdAway" RENAME TO "AiAd"`);
    }
    await expect(aiAds.start()).resolves.toBeUndefined();
    expect(await aiAds.list("no-such-user")).toEqual([]);
  });
});
