/**
 * Web search for customer discovery. Two wire protocols: the Brave Search API (`brave.ts`) and
 * a SearXNG instance's JSON format (`searxng.ts`). Both return plain `{title, url, snippet}`
 * results; result URLs are data only, the service never fetches them. Edge-safe: fetch only.
 */

export interface SearchTarget {
  /** The provider's name (for logs and errors). */
  provider: string;
  baseUrl: string;
  apiKey: string | undefined;
  /** The provider's own time limit for one query. */
  timeoutMs: number;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** One wire protocol's search: a query to one provider, its results. */
export type SearchFn = (
  target: SearchTarget,
  query: string,
  options?: SearchOptions,
) => Promise<SearchResult[]>;

export interface SearchOptions {
  /** Results wanted (the provider may return fewer). */
  count?: number;
  /** An outer deadline (the whole discovery run): aborts the call too. */
  signal?: AbortSignal;
  /** The runtime's fetch (deps.fetch); the global one by default. */
  fetch?: typeof fetch;
}

/**
 * Any failure of one provider: the caller logs it and tries the next. Carries a reason and the
 * HTTP status, never the provider's own text.
 */
export class SearchCallError extends Error {
  readonly provider: string;
  readonly reason: string;
  readonly status: number | undefined;
  constructor(provider: string, reason: string, status?: number) {
    super(`Search provider ${provider} failed: ${reason}${status ? ` (HTTP ${status})` : ""}`);
    this.name = "SearchCallError";
    this.provider = provider;
    this.reason = reason;
    this.status = status;
  }
}

const MAX_TITLE = 300;
const MAX_SNIPPET = 1000;

/** Only http(s) result URLs are kept (no javascript:, data:, ...); text is trimmed and capped. */
function cleanResult(title: unknown, url: unknown, snippet: unknown): SearchResult | null {
  if (typeof url !== "string") return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  const text = (value: unknown, max: number) =>
    typeof value === "string" ? value.replace(/\s+/g, " ").trim().slice(0, max) : "";
  return {
    title: text(title, MAX_TITLE),
    url: parsed.toString(),
    snippet: text(snippet, MAX_SNIPPET),
  };
}

/**
 * One GET with the provider's timeout and the caller's deadline, answering the parsed JSON body.
 * 401/403 are a rejected key, 429 the provider's rate limit, anything else non-200 an HTTP error.
 */
/** A provider's result list, each cleaned (cleanResult), `snippet` naming its snippet field. */
export function cleanResults(results: unknown[], snippet: string): SearchResult[] {
  return results
    .map((item) => {
      const r = item as Record<string, unknown> | null | undefined;
      return cleanResult(r?.title, r?.url, r?.[snippet]);
    })
    .filter((r): r is SearchResult => r !== null);
}

export async function getJson(
  target: SearchTarget,
  url: string,
  headers: Record<string, string>,
  options: SearchOptions,
): Promise<unknown> {
  const signals = [AbortSignal.timeout(target.timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const signal = AbortSignal.any(signals);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(url, {
      method: "GET",
      headers: { accept: "application/json", ...headers },
      redirect: "manual",
      signal,
    });
  } catch {
    throw new SearchCallError(target.provider, signal.aborted ? "timeout" : "network");
  }
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    const reason =
      res.status === 401 || res.status === 403
        ? "rejected key"
        : res.status === 429
          ? "rate limited"
          : "http status";
    throw new SearchCallError(target.provider, reason, res.status);
  }
  try {
    return await res.json();
  } catch {
    throw new SearchCallError(target.provider, signal.aborted ? "timeout" : "bad response", 200);
  }
}

export const trimBase = (base: string) => base.replace(/\/+$/, "");
