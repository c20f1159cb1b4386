import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Frankfurter v1 API on 127.0.0.1 speaking its wire protocol:
 *   GET /latest?base=XXX and GET /YYYY-MM-DD?base=XXX
 * -> 200 `{"amount":1.0,"base":"XXX","date":"...","rates":{"AUD":1.628,...}}`, numbers written
 * as JSON number literals exactly as published (the caller gives them as strings), base
 * excluded from `rates`, `404 {"message":"not found"}` for an unknown base or a day before any.
 * Like Frankfurter, a day without a publication answers with the last published day before it.
 * Only the EUR base is served (other bases get the 404 an unknown base gets); the service only
 * ever asks for EUR.
 */

type FakeFrankfurterFailure = "http-502" | "non-json" | "hang" | "wrong-base" | null;

export interface FakeFrankfurter {
  url: string;
  /** Publishes (or replaces) a day's EUR-based rates, decimal strings as the ECB prints them. */
  publish(date: string, rates: Record<string, string>): void;
  fail(mode: FakeFrankfurterFailure): void;
  /** Forgets every published day (a test starting from nothing published). */
  clear(): void;
  /** Path and query of every request received. */
  requests: URL[];
  close(): Promise<void>;
}

export async function startFakeFrankfurter(): Promise<FakeFrankfurter> {
  const days = new Map<string, Record<string, string>>();
  const requests: URL[] = [];
  let failure: FakeFrankfurterFailure = null;

  function json(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  }

  /** Number literals written from the published strings, never through a float. */
  function answer(base: string, date: string, rates: Record<string, string>): string {
    const entries = Object.keys(rates)
      .filter((q) => q !== base)
      .sort()
      .map((q) => `"${q}":${rates[q]}`)
      .join(",");
    return `{"amount":1.0,"base":"${base}","date":"${date}","rates":{${entries}}}`;
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(url);
    if (failure === "hang") return;
    if (failure === "http-502") {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
      return;
    }
    if (failure === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>maintenance</body></html>");
      return;
    }
    const base = (url.searchParams.get("base") ?? "EUR").toUpperCase();
    const m = /^\/(latest|\d{4}-\d{2}-\d{2})$/.exec(url.pathname);
    if (req.method !== "GET" || !m || base !== "EUR") {
      json(res, 404, '{"message":"not found"}');
      return;
    }
    const wanted = m[1] === "latest" ? "9999-12-31" : m[1]!;
    const date = [...days.keys()]
      .sort()
      .filter((d) => d <= wanted)
      .pop();
    if (!date) {
      json(res, 404, '{"message":"not found"}');
      return;
    }
    const eur = { EUR: "1", ...days.get(date)! };
    json(res, 200, answer(failure === "wrong-base" ? "USD" : base, date, eur));
  }

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    publish(date, rates) {
      days.set(date, rates);
    },
    fail(mode) {
      failure = mode;
    },
    clear() {
      days.clear();
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
