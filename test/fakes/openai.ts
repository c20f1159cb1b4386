import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake OpenAI-compatible chat completions server on 127.0.0.1, speaking the wire protocol:
 *   POST {base}/chat/completions, `Authorization: Bearer <key>`,
 *   body {model, messages: [{role, content}], stream?, max_tokens?, temperature?}
 * -> 200 {id, object: "chat.completion", created, model, choices: [{index, message: {role:
 *    "assistant", content}, finish_reason: "stop"}], usage: {prompt_tokens, completion_tokens,
 *    total_tokens}}
 * or, with `stream: true`, `text/event-stream` of `data: {chat.completion.chunk}` lines (the
 * first with `delta.role`, then `delta.content` pieces, then `finish_reason`), ending in
 * `data: [DONE]` (with `stream_options: {include_usage: true}`, a chunk of no choices carrying
 * `usage` comes before it). A wrong key is 401 with OpenAI's `{error: {message, type, code}}` body.
 *
 * What it answers is scripted with `reply(fn)`: fn gets the request's messages and model and
 * returns the assistant's text. `fail(mode)` scripts failures.
 */

export interface ChatMessage {
  role: string;
  content: string;
}

type FakeOpenAiFailure =
  | "http-500"
  | "http-429"
  | "hang"
  | "non-json"
  | "empty"
  /** Streams two chunks, then drops the connection. */
  | "cut-stream"
  | null;

interface FakeOpenAiRequest {
  authorization: string | undefined;
  model: string;
  messages: ChatMessage[];
  stream: boolean;
  body: Record<string, unknown>;
}

export interface FakeOpenAi {
  /** Base URL to configure as a provider's base_url (the `/v1` prefix included). */
  url: string;
  apiKey: string;
  reply(fn: (messages: ChatMessage[], model: string) => string): void;
  fail(mode: FakeOpenAiFailure): void;
  /** Milliseconds each answer waits before it is sent (drawn per request). */
  latency(ms: () => number): void;
  requests: FakeOpenAiRequest[];
  close(): Promise<void>;
}

const contentText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (part as { text?: string }).text ?? "").join("")
      : "";

export async function startFakeOpenAi(apiKey = "sk-fake-openai-key"): Promise<FakeOpenAi> {
  const requests: FakeOpenAiRequest[] = [];
  let failure: FakeOpenAiFailure = null;
  let latencyMs = () => 0;
  let replyFn = (messages: ChatMessage[], _model: string): string =>
    `echo: ${messages.filter((m) => m.role === "user").at(-1)?.content ?? ""}`;

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") {
      json(res, 404, { error: { message: "Not found", type: "invalid_request_error" } });
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      json(res, 400, { error: { message: "Invalid JSON", type: "invalid_request_error" } });
      return;
    }
    const messages = ((body.messages as { role: string; content: unknown }[]) ?? []).map((m) => ({
      role: m.role,
      content: contentText(m.content),
    }));
    const model = String(body.model ?? "");
    const stream = body.stream === true;
    requests.push({ authorization: req.headers.authorization, model, messages, stream, body });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      json(res, 401, {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          code: "invalid_api_key",
        },
      });
      return;
    }
    if (failure === "hang") return;
    const wait = latencyMs();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (failure === "http-500") {
      json(res, 500, { error: { message: "The server had an error", type: "server_error" } });
      return;
    }
    if (failure === "http-429") {
      json(res, 429, {
        error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
      });
      return;
    }
    if (failure === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
      return;
    }
    const text = failure === "empty" ? "" : replyFn(messages, model);
    const id = `chatcmpl-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = {
      prompt_tokens: messages.reduce((n, m) => n + m.content.length, 0),
      completion_tokens: text.length,
      total_tokens: 0,
    };
    if (!stream) {
      json(res, 200, {
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" },
        ],
        usage,
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (delta: Record<string, unknown>, finish: string | null) =>
      res.write(
        `data: ${JSON.stringify({
          id,
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`,
      );
    send({ role: "assistant", content: "" }, null);
    const pieces = text.match(/.{1,8}/gsu) ?? [];
    for (const [i, piece] of pieces.entries()) {
      if (failure === "cut-stream" && i === 2) {
        res.destroy();
        return;
      }
      send({ content: piece }, null);
    }
    send({}, "stop");
    // `stream_options: {include_usage: true}`: a last chunk with no choices carries the usage.
    if ((body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true) {
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`,
      );
    }
    res.write("data: [DONE]\n\n");
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    apiKey,
    reply(fn) {
      replyFn = fn;
    },
    fail(mode) {
      failure = mode;
    },
    latency(ms) {
      latencyMs = ms;
    },
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
