import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake DeepL API v2 on 127.0.0.1 speaking its wire protocol:
 *   POST /v2/translate, `Authorization: DeepL-Auth-Key <key>`, JSON
 *   {text: string[], target_lang, source_lang?}
 * -> 200 {translations: [{detected_source_language, text}]}; 403 for a wrong key, 456 when the
 * account's character quota is used up, 400 for a missing target_lang.
 * The "translation" is `[<TARGET>] <text>` unless scripted with `translate(fn)`; the detected
 * source language is the given one, else "ZH" for text with CJK characters, else "EN".
 */

type FakeDeeplFailure = "http-500" | "http-456" | "hang" | "non-json" | null;

interface FakeDeeplRequest {
  authorization: string | undefined;
  text: string[];
  target_lang: string;
  source_lang: string | undefined;
}

export interface FakeDeepl {
  url: string;
  apiKey: string;
  translate(fn: (text: string, target: string) => string): void;
  fail(mode: FakeDeeplFailure): void;
  requests: FakeDeeplRequest[];
  close(): Promise<void>;
}

export async function startFakeDeepl(apiKey = "fake-deepl-key:fx"): Promise<FakeDeepl> {
  const requests: FakeDeeplRequest[] = [];
  let failure: FakeDeeplFailure = null;
  let translateFn = (text: string, target: string) => `[${target}] ${text}`;

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  /** The scripted failure's answer; "hang" answers nothing. */
  function answerFailure(res: ServerResponse, mode: NonNullable<FakeDeeplFailure>): void {
    if (mode === "http-500") json(res, 500, { message: "Internal error" });
    else if (mode === "http-456") json(res, 456, { message: "Quota exceeded" });
    else if (mode === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "POST" || url.pathname !== "/v2/translate") {
      json(res, 404, { message: "Not found" });
      return;
    }
    let body: { text?: unknown; target_lang?: unknown; source_lang?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      json(res, 400, { message: "Invalid request" });
      return;
    }
    const text = Array.isArray(body.text) ? body.text.map(String) : [];
    const target = typeof body.target_lang === "string" ? body.target_lang : "";
    const source = typeof body.source_lang === "string" ? body.source_lang : undefined;
    requests.push({
      authorization: req.headers.authorization,
      text,
      target_lang: target,
      source_lang: source,
    });
    if (req.headers.authorization !== `DeepL-Auth-Key ${apiKey}`) {
      json(res, 403, { message: "Authorization failure" });
      return;
    }
    if (failure) return answerFailure(res, failure);
    if (!target || text.length === 0) {
      json(res, 400, { message: "Value for 'target_lang' not supported." });
      return;
    }
    json(res, 200, {
      translations: text.map((t) => ({
        detected_source_language: source ?? (/[\u3400-\u9fff]/.test(t) ? "ZH" : "EN"),
        text: translateFn(t, target),
      })),
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    translate(fn) {
      translateFn = fn;
    },
    fail(mode) {
      failure = mode;
    },
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
