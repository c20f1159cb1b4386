/**
 * Machine translation over the DeepL API v2 wire protocol: `POST {base}/v2/translate`,
 * `Authorization: DeepL-Auth-Key <key>`, JSON `{text: [..], target_lang, source_lang?,
 * glossary_id?}` -> `{translations: [{detected_source_language, text}]}`. 456 means the
 * provider's own quota is used up, 429 too many requests, 403 a bad key. Edge-safe: fetch only.
 *
 * Glossaries (the seller's terms, ADR 0109): `POST {base}/v2/glossaries` with JSON `{name,
 * source_lang, target_lang, entries, entries_format: "tsv"}` -> 201 `{glossary_id, ready, ...}`;
 * `DELETE {base}/v2/glossaries/{id}` -> 204. A glossary is immutable: new entries are a new
 * glossary. A translation with `glossary_id` must name its `source_lang`.
 */

export interface MtTarget {
  provider: string;
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
}

export interface MtResult {
  text: string;
  detectedSourceLang: string | undefined;
  provider: string;
}

export class MtCallError extends Error {
  readonly provider: string;
  readonly status: number | undefined;
  constructor(provider: string, reason: string, status?: number) {
    super(`MT provider ${provider} failed: ${reason}${status ? ` (HTTP ${status})` : ""}`);
    this.name = "MtCallError";
    this.provider = provider;
    this.status = status;
  }
}

/** DeepL language codes are upper case; regional targets keep their region (EN-GB, PT-BR). */
const deeplLang = (lang: string) => lang.trim().toUpperCase().replace("_", "-");

/** A DeepL glossary language: the language alone, lower case ("en", not "EN-GB"). */
const glossaryLang = (lang: string) => deeplLang(lang).split("-")[0]!.toLowerCase();

/** One request to DeepL; a network failure or timeout as an MtCallError. */
async function send(
  target: MtTarget,
  path: string,
  init: { method: string; body?: unknown },
  fetchImpl: typeof fetch,
) {
  const signal = AbortSignal.timeout(target.timeoutMs);
  try {
    const res = await fetchImpl(`${target.baseUrl.replace(/\/+$/, "")}${path}`, {
      method: init.method,
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        accept: "application/json",
        ...(target.apiKey ? { authorization: `DeepL-Auth-Key ${target.apiKey}` } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      redirect: "manual",
      signal,
    });
    return { res, signal };
  } catch {
    throw new MtCallError(target.provider, signal.aborted ? "timeout" : "network");
  }
}

/** A glossary entry's text as TSV allows it: one line, no tab, no surrounding spaces. */
const entryText = (text: string) => text.replace(/[\t\r\n\u2028\u2029]+/g, " ").trim();

/**
 * The entries as DeepL's TSV (`source<TAB>target` per line), each source once (DeepL refuses a
 * duplicate source), in the given order. The same entries give the same text, so its hash
 * identifies the glossary to reuse.
 */
export function glossaryTsv(entries: readonly (readonly [string, string])[]): string {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const [source, target] of entries) {
    const s = entryText(source);
    const t = entryText(target);
    if (!s || !t || seen.has(s)) continue;
    seen.add(s);
    lines.push(`${s}\t${t}`);
  }
  return lines.join("\n");
}

/** Creates a glossary on the provider; its id. */
export async function createMtGlossary(
  target: MtTarget,
  input: { name: string; sourceLang: string; targetLang: string; tsv: string },
  fetchImpl: typeof fetch = fetch,
): Promise<string> {
  const { res, signal } = await send(
    target,
    "/v2/glossaries",
    {
      method: "POST",
      body: {
        name: input.name.slice(0, 200),
        source_lang: glossaryLang(input.sourceLang),
        target_lang: glossaryLang(input.targetLang),
        entries: input.tsv,
        entries_format: "tsv",
      },
    },
    fetchImpl,
  );
  if (res.status !== 201 && res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw new MtCallError(target.provider, "glossary refused", res.status);
  }
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    throw new MtCallError(target.provider, signal.aborted ? "timeout" : "bad response", res.status);
  }
  const id = (parsed as { glossary_id?: unknown })?.glossary_id;
  if (typeof id !== "string" || id === "") {
    throw new MtCallError(target.provider, "bad response", res.status);
  }
  return id;
}

/** Deletes a glossary on the provider; true when it is gone (204, or 404: already gone). */
export async function deleteMtGlossary(
  target: MtTarget,
  glossaryId: string,
  fetchImpl: typeof fetch = fetch,
): Promise<boolean> {
  const { res } = await send(
    target,
    `/v2/glossaries/${encodeURIComponent(glossaryId)}`,
    { method: "DELETE" },
    fetchImpl,
  );
  await res.body?.cancel().catch(() => {});
  return res.status === 204 || res.status === 404;
}

export async function translateWithMt(
  target: MtTarget,
  input: { text: string; targetLang: string; sourceLang?: string; glossaryId?: string },
  fetchImpl: typeof fetch = fetch,
): Promise<MtResult> {
  const body: Record<string, unknown> = {
    text: [input.text],
    target_lang: deeplLang(input.targetLang),
  };
  // DeepL's source languages have no region: "EN", not "EN-US".
  if (input.sourceLang) body.source_lang = deeplLang(input.sourceLang).split("-")[0];
  // DeepL requires the source language with a glossary.
  if (input.glossaryId && input.sourceLang) body.glossary_id = input.glossaryId;
  const { res, signal } = await send(target, "/v2/translate", { method: "POST", body }, fetchImpl);
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    const reason =
      res.status === 456 ? "quota exceeded" : res.status === 403 ? "rejected key" : "http status";
    throw new MtCallError(target.provider, reason, res.status);
  }
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    throw new MtCallError(target.provider, signal.aborted ? "timeout" : "bad response", 200);
  }
  const first = (
    parsed as { translations?: { text?: unknown; detected_source_language?: unknown }[] }
  )?.translations?.[0];
  if (!first || typeof first.text !== "string") {
    throw new MtCallError(target.provider, "bad response", 200);
  }
  return {
    text: first.text,
    detectedSourceLang:
      typeof first.detected_source_language === "string"
        ? first.detected_source_language.toLowerCase()
        : undefined,
    provider: target.provider,
  };
}
