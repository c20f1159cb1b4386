import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake web search on 127.0.0.1 speaking both protocols the service uses:
 *   Brave Search API: GET /res/v1/web/search?q=..&count=.., `X-Subscription-Token: <key>`
 *     -> 200 {web: {results: [{title, url, description}]}}; 401 for a missing or wrong token.
 *   SearXNG JSON:     GET /search?q=..&format=json (an `Authorization: Bearer <key>` is optional,
 *     but a wrong one gets 403) -> 200 {results: [{title, url, content, engine}]}; 403 for a
 *     format other than json (as an instance without the json format enabled answers).
 * Results per query come from `results(fn)`; by default two results per query, one of them
 * (`https://acme-imports.example/`) the same for every query. `fail(mode, only?)` scripts a
 * failure for every request, or for one protocol only. Every request is recorded.
 */

type FakeSearchKind = "brave" | "searxng";
type FakeSearchFailure = "http-500" | "http-429" | "hang" | "non-json" | null;

export interface FakeSearchResult {
  title: string;
  url: string;
  snippet: string;
}

interface FakeSearchRequest {
  kind: FakeSearchKind;
  q: string;
  count: string | null;
  format: string | null;
  token: string | undefined;
  authorization: string | undefined;
  accept: string | undefined;
}

export interface FakeSearch {
  url: string;
  apiKey: string;
  results(fn: (q: string) => FakeSearchResult[]): void;
  fail(mode: FakeSearchFailure, only?: FakeSearchKind): void;
  requests: FakeSearchRequest[];
  close(): Promise<void>;
}

function defaultSearchResults(q: string): FakeSearchResult[] {
  const slug = q.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return [
    {
      title: "Acme Imports Ltd - importer and distributor",
      url: "https://acme-imports.example/",
      snippet: `Acme Imports buys in bulk. Contact sales@acme-imports.example. Query: ${q}`,
    },
    {
      title: `Directory: ${q}`,
      url: `https://directory.example/${slug}`,
      snippet: `A list of companies for ${q}.`,
    },
  ];
}

export async function startFakeSearch(apiKey = "fake-search-key-0001"): Promise<FakeSearch> {
  const requests: FakeSearchRequest[] = [];
  const failures = new Map<FakeSearchKind, FakeSearchFailure>();
  let resultsFn = defaultSearchResults;
  const hanging = new Set<ServerResponse>();

  function json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  }

  function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const kind: FakeSearchKind | undefined =
      url.pathname === "/res/v1/web/search"
        ? "brave"
        : url.pathname === "/search"
          ? "searxng"
          : undefined;
    if (req.method !== "GET" || !kind) return json(res, 404, { error: "Not found" });
    const token = req.headers["x-subscription-token"];
    const q = url.searchParams.get("q") ?? "";
    requests.push({
      kind,
      q,
      count: url.searchParams.get("count"),
      format: url.searchParams.get("format"),
      token: typeof token === "string" ? token : undefined,
      authorization: req.headers.authorization,
      accept: req.headers.accept,
    });
    if (kind === "brave" && token !== apiKey) {
      return json(res, 401, { type: "ErrorResponse", error: { detail: "secret upstream text" } });
    }
    if (kind === "searxng") {
      const auth = req.headers.authorization;
      if (auth !== undefined && auth !== `Bearer ${apiKey}`) {
        return json(res, 403, { error: "secret upstream text" });
      }
      if (url.searchParams.get("format") !== "json") return json(res, 403, { error: "Forbidden" });
    }
    const failure = failures.get(kind) ?? null;
    if (failure === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (failure === "http-500") return json(res, 500, { error: "secret upstream text" });
    if (failure === "http-429") return json(res, 429, { error: "secret upstream text" });
    if (failure === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>secret upstream text</html>");
      return;
    }
    const found = resultsFn(q);
    if (kind === "brave") {
      const count = Number(url.searchParams.get("count") ?? "20");
      return json(res, 200, {
        type: "search",
        query: { original: q },
        web: {
          type: "search",
          results: found.slice(0, count).map((r) => ({
            title: r.title,
            url: r.url,
            description: r.snippet,
          })),
        },
      });
    }
    return json(res, 200, {
      query: q,
      number_of_results: found.length,
      results: found.map((r) => ({
        title: r.title,
        url: r.url,
        content: r.snippet,
        engine: "fake",
      })),
    });
  }

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    results(fn) {
      resultsFn = fn;
    },
    fail(mode, only) {
      for (const kind of only ? [only] : (["brave", "searxng"] as const)) {
        failures.set(kind, mode);
      }
    },
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
