// "Mark as not done" inside Shopify admin (/app/course/{n}, intent=uncomplete), called as the admin
// calls it: a session token for a shop linked to a site user. The site sees the same progress.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
const oauth = await vi.hoisted(async () => (await import("../../helpers/fake-shopify-oauth")).installFakeShopifyOAuth());
import { db } from "~/db.server";
import { action as lessonAction, loader as lessonLoader } from "~/routes/app.course.$lessonNumber";
import { loader as siteCourseLoader } from "~/routes/dashboard.course._index";
import { syncCourseContent } from "~/services/course/content.server";
import { linkedShop } from "../../helpers/linked-shops";
import { call, type CallOptions } from "../../helpers/routes";
import { signSessionToken } from "../../helpers/shopify";

const DESKTOP_CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";

beforeAll(async () => {
  await syncCourseContent(db);
});
beforeEach(() => oauth.reset());

async function asShop(shop: string, options: CallOptions = {}): Promise<CallOptions> {
  return {
    ...options,
    headers: { authorization: `Bearer ${await signSessionToken({ shop })}`, "user-agent": DESKTOP_CHROME, ...options.headers },
  };
}

describe("/app/course/{n}: Mark as not done", () => {
  it("undoes a lesson marked done, for the linked user, on both surfaces", async () => {
    const { shop, user } = await linkedShop();
    const post = async (intent: string) =>
      call(lessonAction, "/app/course/4", await asShop(shop, { method: "POST", form: { intent }, params: { lessonNumber: "4" } }));
    expect(await (await post("complete")).json()).toEqual({ completed: 4 });
    const undone = await post("uncomplete");
    expect(undone.status).toBe(200);
    expect(await undone.json()).toEqual({ uncompleted: 4 });

    const lesson = await (await call(lessonLoader, "/app/course/4", await asShop(shop, { params: { lessonNumber: "4" } }))).json();
    expect(lesson.lesson).toMatchObject({ number: 4, completed: false });
    expect(lesson.progress).toMatchObject({ lessonsCompleted: 0, progressPercentage: 0 });
    const site = await (await call(siteCourseLoader, "/dashboard/course", { cookie: user.cookie })).json();
    expect(site.view).toMatchObject({ lessonsCompleted: 0, progressPercentage: 0 });
  });

  it("an unknown intent is a 400 with a sentence and changes nothing", async () => {
    const { shop, user } = await linkedShop();
    const res = await call(lessonAction, "/app/course/4", await asShop(shop, { method: "POST", form: { intent: "undo-all" }, params: { lessonNumber: "4" } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Unknown action." });
    expect(await db.lessonCompletion.count({ where: { userId: user.id } })).toBe(0);
  });
});
