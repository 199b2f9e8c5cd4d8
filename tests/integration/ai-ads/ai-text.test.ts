// The real AI text adapter against a local server speaking the chat-completions shape: what it sends
// (path, Bearer key, model, messages, temperature, JSON response format), what it does with the
// answer, and each failure: 401, 429 then success, 500, malformed content, timeout.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AiTextError, createAiText, type ProductFacts } from "~/integrations/ai-text.server";
import { DEFAULT_MODEL_COPY, startFakeAi, type FakeAi } from "../../helpers/fake-ai";

const facts: ProductFacts = {
  title: "Self-Cleaning Slicker Brush",
  description: "A slicker brush that keeps shedding off your sofa.",
  niches: ["pets"],
  tags: ["grooming"],
  reasons: ["orders +35% in 7 days"],
};

let ai: FakeAi;
beforeAll(async () => {
  ai = await startFakeAi();
});
afterAll(() => ai.close());
beforeEach(() => {
  ai.requests.length = 0;
  ai.script();
});

function writer(overrides: Parameters<typeof createAiText>[0] = {}) {
  return createAiText({ baseUrl: ai.url, apiKey: ai.apiKey, model: "test-model-1", retryDelayMs: 10, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<AiTextError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AiTextError);
    return error as AiTextError;
  }
  throw new Error("expected the call to fail");
}

describe("chat completions", () => {
  it("sends the model, the messages and the key, and returns the page copy", async () => {
    const w = writer({ temperature: 0.4 });
    expect(w.writer).toBe("test-model-1");
    const copy = await w.writeProductPage(facts);

    expect(ai.requests).toHaveLength(1);
    const [req] = ai.requests;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe(`Bearer ${ai.apiKey}`);
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body.model).toBe("test-model-1");
    expect(req.body.temperature).toBe(0.4);
    expect(req.body.response_format).toEqual({ type: "json_object" });
    const messages = req.body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[0].content).toContain("JSON");
    expect(JSON.parse(messages[1].content)).toEqual({
      product: { title: facts.title, description: facts.description, niches: ["pets"], tags: ["grooming"] },
      signals: facts.reasons,
    });

    expect(copy.title).toBe(DEFAULT_MODEL_COPY.title);
    expect(copy.descriptionHtml).toBe(DEFAULT_MODEL_COPY.paragraphs.map((p) => `<p>${p}</p>`).join(""));
    expect(copy.bullets).toEqual(DEFAULT_MODEL_COPY.bullets);
    expect(copy.seoTitle).toBe(DEFAULT_MODEL_COPY.seoTitle);
    expect(copy.seoDescription).toBe(DEFAULT_MODEL_COPY.seoDescription);
  });

  it("a base URL with a trailing slash and no key still reaches {base}/chat/completions, without Authorization", async () => {
    const w = createAiText({ baseUrl: `${ai.url}/`, model: "m" });
    const error = await failure(w.writeProductPage(facts));
    expect(ai.requests[0].path).toBe("/v1/chat/completions");
    expect(ai.requests[0].headers.authorization).toBeUndefined();
    // the fake wants a key, so this is a 401
    expect(error.code).toBe("unauthorized");
  });

  it("401: a clear error naming AI_API_KEY, and no retry", async () => {
    const error = await failure(writer({ apiKey: "sk-wrong" }).writeProductPage(facts));
    expect(error.code).toBe("unauthorized");
    expect(error.status).toBe(401);
    expect(error.message).toContain("AI_API_KEY");
    expect(error.message).toContain("Incorrect API key provided.");
    expect(ai.requests).toHaveLength(1);
  });

  it("429 then success: waits (Retry-After) and retries once", async () => {
    ai.script({ kind: "error", status: 429, message: "Rate limit reached", retryAfter: "0" });
    const copy = await writer().writeProductPage(facts);
    expect(copy.title).toBe(DEFAULT_MODEL_COPY.title);
    expect(ai.requests).toHaveLength(2);
    expect(ai.requests[1].body).toEqual(ai.requests[0].body);
  });

  it("500 twice: retried once, then a server error", async () => {
    ai.script(
      { kind: "error", status: 500, message: "The server had an error" },
      { kind: "error", status: 503, message: "overloaded" },
    );
    const error = await failure(writer().writeProductPage(facts));
    expect(ai.requests).toHaveLength(2);
    expect(error.code).toBe("server_error");
    expect(error.status).toBe(503);
    expect(error.message).toContain("overloaded");
  });

  it("429 twice: a rate-limit error after the one retry", async () => {
    ai.script({ kind: "error", status: 429, retryAfter: "0" }, { kind: "error", status: 429, retryAfter: "0" });
    const error = await failure(writer().writeProductPage(facts));
    expect(ai.requests).toHaveLength(2);
    expect(error.code).toBe("rate_limited");
  });

  it("500 then success", async () => {
    ai.script({ kind: "error", status: 502 });
    await expect(writer().writeProductPage(facts)).resolves.toMatchObject({ title: DEFAULT_MODEL_COPY.title });
    expect(ai.requests).toHaveLength(2);
  });

  it("malformed content: not JSON, JSON without the fields, or no choices", async () => {
    ai.script({ kind: "content", content: "Here is a great product page for you!" });
    expect((await failure(writer().writeProductPage(facts))).code).toBe("malformed");

    ai.script({ kind: "content", content: JSON.stringify({ title: "Only a title" }) });
    const missing = await failure(writer().writeProductPage(facts));
    expect(missing.message).toContain("missing paragraphs, bullets, seoDescription");

    ai.script({ kind: "raw", status: 200, body: JSON.stringify({ id: "x", choices: [] }) });
    expect((await failure(writer().writeProductPage(facts))).message).toContain("choices[0].message.content");

    ai.script({ kind: "raw", status: 200, body: "<html>gateway</html>", contentType: "text/html" });
    expect((await failure(writer().writeProductPage(facts))).code).toBe("malformed");
  });

  it("a server that does not know response_format is asked again without it", async () => {
    ai.script({ kind: "error", status: 400, message: "Unrecognized request argument supplied: response_format" });
    await expect(writer().writeProductPage(facts)).resolves.toMatchObject({ title: DEFAULT_MODEL_COPY.title });
    expect(ai.requests).toHaveLength(2);
    expect(ai.requests[0].body.response_format).toEqual({ type: "json_object" });
    expect(ai.requests[1].body).not.toHaveProperty("response_format");
  });

  it("another 400 is reported, not retried", async () => {
    ai.script({ kind: "error", status: 400, message: "model 'nope' does not exist" });
    const error = await failure(writer().writeProductPage(facts));
    expect(error.code).toBe("bad_request");
    expect(error.message).toContain("model 'nope' does not exist");
    expect(ai.requests).toHaveLength(1);
  });

  it("timeout: gives up after AI_TIMEOUT_MS with a clear error", async () => {
    ai.script({ kind: "hang", ms: 3000 });
    const error = await failure(writer({ timeoutMs: 200 }).writeProductPage(facts));
    expect(error.code).toBe("timeout");
    expect(error.message).toBe(`The AI endpoint (${new URL(ai.url).host}) did not answer within 0.2 s.`);
    expect(ai.requests).toHaveLength(1);
  });

  it("an endpoint nobody listens on: unreachable", async () => {
    const w = createAiText({ baseUrl: "http://127.0.0.1:9/v1", model: "m", timeoutMs: 2000 });
    expect((await failure(w.writeProductPage(facts))).code).toBe("unreachable");
  });
});
