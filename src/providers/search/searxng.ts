import { cleanResults, getJson, SearchCallError, type SearchFn, trimBase } from "./types";

/**
 * A SearXNG instance's JSON API: `GET {base}/search?q=..&format=json` ->
 * `{results: [{title, url, content, engine}]}` (the instance must allow the json format).
 * An optional key is sent as `Authorization: Bearer <key>`, for instances behind an
 * authenticating proxy. SearXNG has no count parameter: the first `count` results are kept.
 */
export const searchSearxng: SearchFn = async (target, query, options = {}) => {
  const params = new URLSearchParams({ q: query, format: "json" });
  const body = await getJson(
    target,
    `${trimBase(target.baseUrl)}/search?${params}`,
    target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
    options,
  );
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new SearchCallError(target.provider, "bad response", 200);
  return cleanResults(results, "content").slice(0, options.count ?? 10);
};
