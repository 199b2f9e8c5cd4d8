// A stand-in for an OpenAI-compatible chat-completions endpoint on 127.0.0.1 (node:http): POST
// {base}/chat/completions with a Bearer key answers the documented shape
// ({ id, object: "chat.completion", model, choices: [{ index, message: { role, content }, finish_reason }], usage }),
// and errors as { error: { message, type, code } }. POST {base}/audio/speech { model, input, voice, response_format }
// answers the speech as a WAV file (a 440 Hz tone, 300 ms a word by default; `speechMs` changes that). It records every request (path, headers, parsed
// body) and answers from a script, one step per request, then the default answer.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sineWav } from "./audio";

export interface RecordedAiRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

export type AiStep =
  | { kind: "content"; content: string }
  | { kind: "error"; status: number; message?: string; retryAfter?: string }
  | { kind: "raw"; status: number; body: string; contentType?: string }
  | { kind: "hang"; ms: number };

export interface FakeAi {
  /** Base URL to use as AI_BASE_URL (ends in /v1). */
  url: string;
  apiKey: string;
  requests: RecordedAiRequest[];
  /** Steps answered in order, one per request; afterwards every request gets the default copy. */
  script(...steps: AiStep[]): void;
  close(): Promise<void>;
}

export const DEFAULT_MODEL_COPY = {
  title: "Self-Cleaning Slicker Brush for Dogs and Cats",
  paragraphs: [
    "Brushing your pet should feel like a treat. This slicker brush lifts loose fur in a few strokes.",
    "Press the button and the bristles retract, so the fur slides off in one clean sheet.",
  ],
  bullets: ["Removes loose fur in minutes", "One-click cleaning", "Gentle on sensitive skin"],
  seoTitle: "Self-Cleaning Slicker Brush for Dogs and Cats",
  seoDescription: "A slicker brush that lifts loose fur in a few strokes and cleans itself with one click.",
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function completion(model: string, content: string) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2, 12)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 },
  };
}

export async function startFakeAi(
  options: { apiKey?: string; defaultContent?: string; speechMs?: (input: string) => number } = {},
): Promise<FakeAi> {
  const apiKey = options.apiKey ?? "sk-test-fake-ai-key";
  const requests: RecordedAiRequest[] = [];
  let steps: AiStep[] = [];
  const defaultContent = options.defaultContent ?? JSON.stringify(DEFAULT_MODEL_COPY);

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      // recorded as empty; answered below
    }
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    requests.push({ method: req.method ?? "", path, headers: req.headers, body });

    if (req.method === "POST" && path === "/v1/audio/speech") {
      if (req.headers.authorization !== `Bearer ${apiKey}`)
        return send(res, 401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } });
      if (typeof body.model !== "string" || typeof body.input !== "string" || typeof body.voice !== "string")
        return send(res, 400, { error: { message: "model, input and voice are required", type: "invalid_request_error", code: null } });
      const step = steps[0]?.kind === "error" ? steps.shift() : undefined;
      if (step?.kind === "error") return send(res, step.status, { error: { message: step.message ?? `error ${step.status}`, type: "server_error", code: null } });
      const ms = options.speechMs?.(body.input) ?? Math.max(600, body.input.split(/\s+/).length * 300);
      const wav = sineWav(ms);
      res.writeHead(200, { "content-type": "audio/wav", "content-length": String(wav.length) });
      return res.end(Buffer.from(wav));
    }
    if (req.method !== "POST" || path !== "/v1/chat/completions") {
      return send(res, 404, {
        error: { message: `Unknown path ${path}`, type: "invalid_request_error", code: "not_found" },
      });
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(res, 401, {
        error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" },
      });
    }
    if (typeof body.model !== "string" || !Array.isArray(body.messages)) {
      return send(res, 400, {
        error: { message: "model and messages are required", type: "invalid_request_error", code: null },
      });
    }
    const step = steps.shift();
    if (!step) return send(res, 200, completion(body.model, defaultContent));
    switch (step.kind) {
      case "content":
        return send(res, 200, completion(body.model, step.content));
      case "error": {
        const type =
          step.status === 429 ? "rate_limit_exceeded" : step.status >= 500 ? "server_error" : "invalid_request_error";
        return send(
          res,
          step.status,
          { error: { message: step.message ?? `error ${step.status}`, type, code: null } },
          step.retryAfter ? { "retry-after": step.retryAfter } : {},
        );
      }
      case "raw":
        res.writeHead(step.status, { "content-type": step.contentType ?? "application/json" });
        return res.end(step.body);
      case "hang":
        setTimeout(() => {
          if (!res.destroyed) send(res, 200, completion(body.model as string, defaultContent));
        }, step.ms);
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    requests,
    script: (...s) => {
      steps = s;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
