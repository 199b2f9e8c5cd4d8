// The research assistant's model path against a local server speaking the OpenAI chat-completions shape:
// the question goes out as a forced tool call with the filters' JSON schema; a good answer's filters are
// used and labelled "from the AI model"; a malformed answer, one that breaks the schema, an error status
// and a slow server each fall back to the built-in parser, with a note saying why.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { createAiText } from "~/integrations/ai-text.server";
import { createAssistant } from "~/services/assistant.server";
import { products } from "~/services/index.server";
import { startFakeAi, type FakeAi } from "../../helpers/fake-ai";
import { fixtureCatalogue, insertProducts } from "../../helpers/products";
import { createUser } from "../../helpers/site-users";

let ai: FakeAi;
beforeAll(async () => {
  ai = await startFakeAi();
  const base = fixtureCatalogue(6, 5);
  await insertProducts(
    db,
    base.map((p, i) => ({ ...p, objectID: `am-${i}`, title: `Mordavin item ${i}`, niches: [i < 3 ? "pets" : "kitchen"], priceCents: 1000 + i * 500, lifecycleStage: i % 2 ? "rising" : "peak" })),
  );
});
afterAll(() => ai.close());
beforeEach(() => {
  ai.requests.length = 0;
  ai.script();
});

/** A chat completion whose message calls search_products with these arguments (a JSON string, as OpenAI sends). */
function toolCall(args: string) {
  return JSON.stringify({
    id: "chatcmpl-tool",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search_products", arguments: args } }] },
        finish_reason: "tool_calls",
      },
    ],
  });
}

function assistant(timeoutMs = 2000) {
  return createAssistant({
    db,
    products: { search: products.search, productCards: products.productCards, niches: products.niches },
    ai: createAiText({ baseUrl: ai.url, apiKey: ai.apiKey, model: "test-model", retryDelayMs: 1 }),
    modelTimeoutMs: timeoutMs,
  });
}

async function askOnce(text: string, timeoutMs?: number) {
  const user = await createUser({ userSubscribed: "yes" });
  const a = assistant(timeoutMs);
  const t = await a.create(user.id);
  return a.post({ id: user.id, userSubscribed: "yes" }, t.id, text);
}

describe("the model path", () => {
  it("asks for the filters as a forced tool call and uses a good answer, labelled as the model's", async () => {
    ai.script({ kind: "raw", status: 200, body: toolCall(JSON.stringify({ niche: ["pets"], stage: ["rising"], maxPrice: 30, sort: "orders", unsupported: ["shipping country"] })) });
    const answer = await askOnce("rising pet stuff under thirty bucks that ships from Canada");

    expect(ai.requests).toHaveLength(1);
    const body = ai.requests[0].body as { model: string; tools: { type: string; function: { name: string; parameters: { properties: Record<string, unknown> } } }[]; tool_choice: unknown; messages: { role: string; content: string }[] };
    expect(body.model).toBe("test-model");
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "search_products" } });
    expect(body.tools[0].function.name).toBe("search_products");
    expect(Object.keys(body.tools[0].function.parameters.properties)).toEqual(expect.arrayContaining(["niche", "stage", "minPrice", "maxPrice", "minMargin", "sort", "likeTitle", "unsupported"]));
    const prompt = JSON.parse(body.messages[1].content) as { question: string; niches: string[] };
    expect(prompt.question).toBe("rising pet stuff under thirty bucks that ships from Canada");
    expect(prompt.niches).toEqual(expect.arrayContaining(["pets", "kitchen"]));

    expect(answer.source).toBe("AI model");
    expect(answer.sourceLabel).toBe("from the AI model");
    expect(answer.query).toEqual({ niche: ["pets"], stage: ["rising"], maxPrice: 30, sort: "orders" });
    expect(answer.products.map((p) => p.objectID)).toEqual(["am-1"]);
    // The model's "unsupported" and our own detection, said once.
    expect(answer.text).toContain("I can't filter by shipping country yet.");
    expect(answer.text).toContain("I can't filter by shipping country, delivery time or free shipping yet.");
  });

  it("a follow-up sends the previous filters and products with their positions", async () => {
    const user = await createUser({ userSubscribed: "yes" });
    const a = assistant();
    const t = await a.create(user.id);
    const me = { id: user.id, userSubscribed: "yes" };
    ai.script(
      { kind: "raw", status: 200, body: toolCall(JSON.stringify({ niche: ["pets"] })) },
      { kind: "raw", status: 200, body: toolCall(JSON.stringify({ likePosition: 2 })) },
    );
    const first = await a.post(me, t.id, "pets");
    const second = await a.post(me, t.id, "more like the second");
    const prompt = JSON.parse((ai.requests[1].body.messages as { content: string }[])[1].content) as { previous: { filters: unknown; products: { position: number; title: string }[] } };
    expect(prompt.previous.filters).toEqual({ niche: ["pets"] });
    expect(prompt.previous.products.map((p) => p.position)).toEqual(first.products.map((_, i) => i + 1));
    const secondProduct = first.products[1];
    expect(second.notes[0]).toContain(`Like “${secondProduct.title}”`);
    expect(second.query?.niche).toEqual(["pets"]);
  });

  it.each([
    ["malformed JSON", { kind: "raw" as const, status: 200, body: toolCall("{ niche: pets") }, "The AI model answered with something that is not JSON, so the built-in parser read your question instead."],
    ["an answer that breaks the schema", { kind: "raw" as const, status: 200, body: toolCall(JSON.stringify({ maxPrice: "thirty", stage: ["sideways"] })) }, "The AI model's answer did not fit the product search ("],
    ["a niche the catalogue does not have", { kind: "raw" as const, status: 200, body: toolCall(JSON.stringify({ niche: ["unicorns"] })) }, "The AI model's answer did not fit the product search (niche: unicorns is not a niche of the catalogue)"],
    ["a server error", { kind: "error" as const, status: 500, message: "overloaded" }, "The AI model could not be used (The AI endpoint failed (500)"],
  ])("%s falls back to the built-in parser, with a note", async (_name, step, note) => {
    ai.script(step);
    const answer = await askOnce("pet products under $30");
    expect(answer.source).toBe("built-in parser");
    expect(answer.sourceLabel).toBe("from the built-in parser");
    expect(answer.query).toEqual({ niche: ["pets"], maxPrice: 30 });
    expect(answer.notes.some((n) => n.startsWith(note))).toBe(true);
    // A person is waiting: no second try after a failure.
    expect(ai.requests).toHaveLength(1);
  });

  it("a slow server times out and the built-in parser answers", async () => {
    ai.script({ kind: "hang", ms: 3000 });
    const started = Date.now();
    const answer = await askOnce("kitchen products over $15", 300);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(answer.source).toBe("built-in parser");
    expect(answer.query).toEqual({ niche: ["kitchen"], minPrice: 15 });
    expect(answer.notes).toContain("The AI model did not answer within 0.3 s, so the built-in parser read your question instead.");
  });
});
