// The research assistant page's loader and action, shared by the site (/dashboard/assistant) and the
// embedded app (/app/assistant): each surface's route authenticates its own way and hands the user over.
// The rules are the assistant service's (docs/decisions/031); the JSON API (/api/threads) answers the same.
import { data } from "@remix-run/node";
import { z } from "zod";
import { QUESTION_MAX_CHARS } from "~/domain/products/product-question";
import { expectedFailure } from "~/pages/http/form-errors.server";
import { readForm } from "~/pages/http/http.server";
import type { User } from "~/services/accounts/auth.server";
import { assistant } from "~/services/index.server";

const ThreadId = z.coerce.number().int().positive().max(2 ** 31 - 1);

/** A thread id from the URL; anything else is the 404 of a thread that does not exist. */
export function parseThreadId(raw: string | null | undefined): number {
  const id = ThreadId.safeParse(raw);
  if (!id.success) throw Response.json({ error: "No thread with that id." }, { status: 404 });
  return id.data;
}

/** The user's threads and the open one (?thread=, else the last active), with its messages. */
export async function loadAssistantPage(request: Request, user: User) {
  const threads = await assistant.list(user.id);
  const asked = new URL(request.url).searchParams.get("thread");
  let current = null;
  let notice: string | null = null;
  if (asked !== null) {
    const id = ThreadId.safeParse(asked);
    const found = id.success ? threads.find((t) => t.id === id.data) : undefined;
    if (found) current = await assistant.get(user, found.id);
    else notice = "That thread does not exist (it may have been deleted).";
  } else if (threads[0]) {
    current = await assistant.get(user, threads[0].id);
  }
  return { threads, current, notice, questionMax: QUESTION_MAX_CHARS, modelConfigured: assistant.modelConfigured };
}

export interface AssistantActionResult {
  ok: boolean;
  message: string;
  /** The thread to show after the action (a new one, the one asked in; null after a delete). */
  threadId: number | null;
}

const Form = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("ask"), threadId: z.string().optional(), text: z.string().max(100_000) }),
  z.object({ intent: z.literal("new") }),
  z.object({ intent: z.literal("rename"), threadId: z.string(), title: z.string().max(1000) }),
  z.object({ intent: z.literal("delete"), threadId: z.string() }),
]);

function result(status: number, body: AssistantActionResult) {
  return data<AssistantActionResult>(body, { status });
}

export async function assistantPageAction(request: Request, user: User) {
  const form = Form.safeParse(Object.fromEntries(await readForm(request)));
  if (!form.success) return result(400, { ok: false, message: "That action is not one this page knows.", threadId: null });
  const f = form.data;
  try {
    if (f.intent === "new") {
      const thread = await assistant.create(user.id);
      return result(200, { ok: true, message: "New thread started.", threadId: thread.id });
    }
    const threadId = f.intent === "ask" && !f.threadId ? null : ThreadId.safeParse(f.threadId);
    if (threadId !== null && !threadId.success) return result(404, { ok: false, message: "No thread with that id.", threadId: null });
    if (f.intent === "ask") {
      if (threadId) {
        await assistant.post(user, threadId.data, f.text);
        return result(200, { ok: true, message: "Answered.", threadId: threadId.data });
      }
      // The first question starts a thread; a question refused (too long, too many this hour) leaves none behind.
      const thread = await assistant.create(user.id);
      try {
        await assistant.post(user, thread.id, f.text);
      } catch (error) {
        await assistant.remove(user.id, thread.id);
        throw error;
      }
      return result(200, { ok: true, message: "Answered.", threadId: thread.id });
    }
    if (f.intent === "rename") {
      const thread = await assistant.rename(user.id, threadId!.data, f.title);
      return result(200, { ok: true, message: `Renamed to “${thread.title}”.`, threadId: thread.id });
    }
    await assistant.remove(user.id, threadId!.data);
    return result(200, { ok: true, message: "Thread deleted.", threadId: null });
  } catch (error) {
    const failure = expectedFailure(error);
    return result(failure.status, { ok: false, message: failure.message, threadId: f.intent === "ask" && f.threadId ? Number(f.threadId) || null : null });
  }
}
