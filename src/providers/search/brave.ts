import { cleanResults, getJson, SearchCallError, type SearchFn, trimBase } from "./types";

/**
 * The Brave Search API: `GET {base}/res/v1/web/search?q=..&count=..` with
 * `X-Subscription-Token: <key>` and `Accept: application/json` ->
 * `{web: {results: [{title, url, description}]}}`. 401/403: a rejected key; 429: rate limited.
 * `{base}` is https://api.search.brave.com for the hosted API.
 */
export const searchBrave: SearchFn = async (target, query, options = {}) => {
  if (!target.apiKey) throw new SearchCallError(target.provider, "no key");
  const params = new URLSearchParams({ q: query, count: String(options.count ?? 10) });
  const body = await getJson(
    target,
    `${trimBase(target.baseUrl)}/res/v1/web/search?${params}`,
    { "x-subscription-token": target.apiKey },
    options,
  );
  const web = (body as { web?: { results?: unknown } } | null)?.web;
  // A query with no hits may come back without a `web` section at all.
  if (body === null || typeof body !== "object") {
    throw new SearchCallError(target.provider, "bad response", 200);
  }
  if (web === undefined) return [];
  if (!Array.isArray(web.results)) throw new SearchCallError(target.provider, "bad response", 200);
  return cleanResults(web.results, "description");
};
