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
 *
 * Glossaries, as DeepL's v2 glossary API:
 *   POST /v2/glossaries JSON {name, source_lang, target_lang, entries, entries_format: "tsv"|"csv"}
 *     -> 201 {glossary_id, name, ready: true, source_lang, target_lang, creation_time,
 *     entry_count}; 400 for a missing field, no entries, a duplicate source or an unsupported
 *     language (`glossaryLanguages`);
 *   GET /v2/glossaries -> {glossaries: [...]}; GET /v2/glossaries/{id} -> the metadata or 404;
 *   GET /v2/glossaries/{id}/entries -> the entries as TSV (text/tab-separated-values);
 *   DELETE /v2/glossaries/{id} -> 204 or 404.
 * A translation with `glossary_id` needs `source_lang` (400 otherwise), a glossary of this
 * account (404 otherwise) whose languages match the request's (400 otherwise); each entry's
 * source phrase in the text (case-insensitively) becomes its target before the translation.
 */

type FakeDeeplFailure = "http-500" | "http-456" | "hang" | "non-json" | null;

interface FakeDeeplRequest {
  authorization: string | undefined;
  text: string[];
  target_lang: string;
  source_lang: string | undefined;
  glossary_id: string | undefined;
}

interface FakeGlossary {
  glossary_id: string;
  name: string;
  source_lang: string;
  target_lang: string;
  creation_time: string;
  entries: [string, string][];
}

export interface FakeDeepl {
  url: string;
  apiKey: string;
  translate(fn: (text: string, target: string) => string): void;
  fail(mode: FakeDeeplFailure): void;
  requests: FakeDeeplRequest[];
  /** The glossaries this account holds now, by id. */
  glossaries: Map<string, FakeGlossary>;
  /** Every glossary create request's body, accepted or not; and every DELETE's id. */
  glossaryCreates: Record<string, unknown>[];
  glossaryDeletes: string[];
  /** Glossary languages the account supports (DeepL's list); others are a 400. */
  glossaryLanguages: Set<string>;
  close(): Promise<void>;
}

/** DeepL's TSV or CSV glossary entries (no quoting in TSV; simple quoted CSV). */
function parseEntries(text: string, format: string): [string, string][] | undefined {
  const out: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    let parts: string[];
    if (format === "csv") {
      parts = [...line.matchAll(/"((?:[^"]|"")*)"|([^,]+)/g)].map((m) =>
        m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!,
      );
    } else parts = line.split("\t");
    if (parts.length !== 2) return undefined;
    const [source, target] = parts as [string, string];
    if (source.trim() !== source || target.trim() !== target || !source || !target) {
      return undefined;
    }
    out.push([source, target]);
  }
  return out;
}

/** Each entry's source phrase (longest first, case-insensitively) becomes its target. */
function applyGlossary(glossary: FakeGlossary, text: string): string {
  const entries = [...glossary.entries].sort((a, b) => b[0].length - a[0].length);
  const parts: string[] = [];
  let rest = text;
  for (const [from, to] of entries) {
    rest = rest.replace(new RegExp(escapeRegExp(from), "giu"), () => {
      parts.push(to);
      return `\uE000${parts.length - 1}\uE001`;
    });
  }
  return rest.replace(/\uE000(\d+)\uE001/g, (_m, i: string) => parts[Number(i)]!);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export async function startFakeDeepl(apiKey = "fake-deepl-key:fx"): Promise<FakeDeepl> {
  const requests: FakeDeeplRequest[] = [];
  const glossaries = new Map<string, FakeGlossary>();
  const glossaryCreates: Record<string, unknown>[] = [];
  const glossaryDeletes: string[] = [];
  const glossaryLanguages = new Set([
    "da",
    "de",
    "en",
    "es",
    "fr",
    "it",
    "ja",
    "ko",
    "nb",
    "nl",
    "pl",
    "pt",
    "ru",
    "sv",
    "zh",
  ]);
  let nextGlossary = 1;
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
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname.startsWith("/v2/glossaries")) {
      if (req.headers.authorization !== `DeepL-Auth-Key ${apiKey}`) {
        json(res, 403, { message: "Authorization failure" });
        return;
      }
      glossaryRoute(req.method ?? "GET", url.pathname, raw, res);
      return;
    }
    if (req.method !== "POST" || url.pathname !== "/v2/translate") {
      json(res, 404, { message: "Not found" });
      return;
    }
    translateRoute(req.headers.authorization, raw, res);
  }

  /** The translate request's fields, or undefined when the body is not JSON. */
  function readTranslate(raw: string) {
    let body: {
      text?: unknown;
      target_lang?: unknown;
      source_lang?: unknown;
      glossary_id?: unknown;
    };
    try {
      body = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    return {
      text: Array.isArray(body.text) ? body.text.map(String) : [],
      target: str(body.target_lang) ?? "",
      source: str(body.source_lang),
      glossaryId: str(body.glossary_id),
    };
  }

  function translateRoute(authorization: string | undefined, raw: string, res: ServerResponse) {
    const body = readTranslate(raw);
    if (!body) {
      json(res, 400, { message: "Invalid request" });
      return;
    }
    const { text, target, source, glossaryId } = body;
    requests.push({
      authorization,
      text,
      target_lang: target,
      source_lang: source,
      glossary_id: glossaryId,
    });
    if (authorization !== `DeepL-Auth-Key ${apiKey}`) {
      json(res, 403, { message: "Authorization failure" });
      return;
    }
    if (failure) return answerFailure(res, failure);
    if (!target || text.length === 0) {
      json(res, 400, { message: "Value for 'target_lang' not supported." });
      return;
    }
    const glossary = glossaryId === undefined ? undefined : glossaryFor(glossaryId, source, target);
    if (glossary && "status" in glossary) {
      json(res, glossary.status, { message: glossary.message });
      return;
    }
    const withGlossary = (t: string) => (glossary ? applyGlossary(glossary, t) : t);
    json(res, 200, {
      translations: text.map((t) => ({
        detected_source_language: source ?? (/[\u3400-\u9fff]/.test(t) ? "ZH" : "EN"),
        text: translateFn(withGlossary(t), target),
      })),
    });
  }

  function glossaryInfo(g: FakeGlossary) {
    return {
      glossary_id: g.glossary_id,
      name: g.name,
      ready: true,
      source_lang: g.source_lang,
      target_lang: g.target_lang,
      creation_time: g.creation_time,
      entry_count: g.entries.length,
    };
  }

  /** The glossary a translation names, or the error DeepL answers. */
  function glossaryFor(
    id: string,
    source: string | undefined,
    target: string,
  ): FakeGlossary | { status: number; message: string } {
    if (!source)
      return { status: 400, message: "Use of a glossary requires the source_lang parameter" };
    const glossary = glossaries.get(id);
    if (!glossary) return { status: 404, message: "Glossary not found" };
    if (
      glossary.source_lang !== source.toLowerCase() ||
      glossary.target_lang !== target.toLowerCase().split("-")[0]
    ) {
      return { status: 400, message: "Language pair of the glossary doesn't match the request" };
    }
    return glossary;
  }

  function createGlossary(raw: string): { status: number; body: unknown } {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return { status: 400, body: { message: "Invalid request" } };
    }
    glossaryCreates.push(body);
    const { name, source_lang, target_lang, entries, entries_format } = body;
    const fields = [name, source_lang, target_lang, entries];
    if (
      !fields.every((f) => typeof f === "string") ||
      !["tsv", "csv"].includes(String(entries_format))
    ) {
      return { status: 400, body: { message: "Missing or invalid argument" } };
    }
    const src = String(source_lang).toLowerCase();
    const tgt = String(target_lang).toLowerCase();
    if (!glossaryLanguages.has(src) || !glossaryLanguages.has(tgt) || src === tgt) {
      return {
        status: 400,
        body: { message: "Unsupported glossary source and target language pair" },
      };
    }
    const parsed = parseEntries(String(entries), String(entries_format));
    const sources = new Set(parsed?.map(([s]) => s));
    if (!parsed || parsed.length === 0 || sources.size !== parsed.length) {
      return { status: 400, body: { message: "Invalid glossary entries provided" } };
    }
    const glossary: FakeGlossary = {
      glossary_id: `def3a26b-3e84-45b3-84ae-${String(nextGlossary++).padStart(12, "0")}`,
      name: String(name),
      source_lang: src,
      target_lang: tgt,
      creation_time: new Date().toISOString(),
      entries: parsed,
    };
    glossaries.set(glossary.glossary_id, glossary);
    return { status: 201, body: glossaryInfo(glossary) };
  }

  function glossaryRoute(method: string, path: string, raw: string, res: ServerResponse): void {
    const [, , , id, sub] = path.split("/");
    if (id === undefined) {
      if (method === "POST") {
        const out = createGlossary(raw);
        json(res, out.status, out.body);
      } else if (method === "GET") {
        json(res, 200, { glossaries: [...glossaries.values()].map(glossaryInfo) });
      } else json(res, 405, { message: "Method not allowed" });
      return;
    }
    const glossary = glossaries.get(id);
    if (method === "DELETE" && sub === undefined) glossaryDeletes.push(id);
    if (!glossary) {
      json(res, 404, { message: "Glossary not found" });
      return;
    }
    if (method === "DELETE" && sub === undefined) {
      glossaries.delete(id);
      res.writeHead(204);
      res.end();
    } else if (method === "GET" && sub === undefined) {
      json(res, 200, glossaryInfo(glossary));
    } else if (method === "GET" && sub === "entries") {
      res.writeHead(200, { "content-type": "text/tab-separated-values" });
      res.end(glossary.entries.map(([s, t]) => `${s}\t${t}`).join("\n"));
    } else json(res, 404, { message: "Not found" });
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
    glossaries,
    glossaryCreates,
    glossaryDeletes,
    glossaryLanguages,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
