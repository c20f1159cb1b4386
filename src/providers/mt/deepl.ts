/**
 * Machine translation over the DeepL API v2 wire protocol: `POST {base}/v2/translate`,
 * `Authorization: DeepL-Auth-Key <key>`, JSON `{text: [..], target_lang, source_lang?}` ->
 * `{translations: [{detected_source_language, text}]}`. 456 means the provider's own quota is
 * used up, 429 too many requests, 403 a bad key. Edge-safe: fetch only.
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

export async function translateWithMt(
  target: MtTarget,
  input: { text: string; targetLang: string; sourceLang?: string },
  fetchImpl: typeof fetch = fetch,
): Promise<MtResult> {
  const body: Record<string, unknown> = {
    text: [input.text],
    target_lang: deeplLang(input.targetLang),
  };
  // DeepL's source languages have no region: "EN", not "EN-US".
  if (input.sourceLang) body.source_lang = deeplLang(input.sourceLang).split("-")[0];
  const signal = AbortSignal.timeout(target.timeoutMs);
  let res: Response;
  try {
    res = await fetchImpl(`${target.baseUrl.replace(/\/+$/, "")}/v2/translate`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...(target.apiKey ? { authorization: `DeepL-Auth-Key ${target.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      redirect: "manual",
      signal,
    });
  } catch {
    throw new MtCallError(target.provider, signal.aborted ? "timeout" : "network");
  }
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
