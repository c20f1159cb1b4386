import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake ExchangeRate-API on 127.0.0.1 speaking its "open access" protocol:
 *   GET /v6/latest/{BASE}
 * -> 200 `{"result":"success","provider":...,"time_last_update_unix":...,
 *   "time_last_update_utc":"...","time_next_update_unix":...,"base_code":"EUR",
 *   "rates":{"EUR":1,"AED":4.0211,...}}`, numbers written as JSON number literals exactly as
 * published (the caller gives them as strings), the base itself in `rates` as 1, like the real
 * one. An unknown base answers 404 `{"result":"error","error-type":"unsupported-code"}`; only
 * EUR is served (the service only asks for EUR). `publish` sets the day (its 00:02 UTC is the
 * update time, as the real one updates once a day just after midnight).
 */

type FakeFailure = "http-500" | "error-document" | "non-json" | "hang" | "wrong-base" | null;

export interface FakeExchangeRateApi {
  url: string;
  /** Publishes (or replaces) the latest EUR-based rates, decimal strings. */
  publish(date: string, rates: Record<string, string>): void;
  fail(mode: FakeFailure): void;
  /** Forgets the published day: every request is answered `unsupported-code`. */
  clear(): void;
  /** Path of every request received. */
  requests: URL[];
  close(): Promise<void>;
}

export async function startFakeExchangeRateApi(): Promise<FakeExchangeRateApi> {
  let latest: { date: string; rates: Record<string, string> } | null = null;
  const requests: URL[] = [];
  let failure: FakeFailure = null;

  function json(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  }

  function answer(base: string, date: string, rates: Record<string, string>): string {
    const unix = Date.parse(`${date}T00:02:31Z`) / 1000;
    const entries = Object.keys(rates)
      .sort((a, b) => (a === base ? -1 : b === base ? 1 : a.localeCompare(b)))
      .map((q) => `"${q}":${rates[q]}`)
      .join(",");
    return (
      `{"result":"success","provider":"https://example.test","documentation":"https://example.test/docs",` +
      `"terms_of_use":"https://example.test/terms","time_last_update_unix":${unix},` +
      `"time_last_update_utc":"${new Date(unix * 1000).toUTCString().replace("GMT", "+0000")}",` +
      `"time_next_update_unix":${unix + 86_400},"time_next_update_utc":"later",` +
      `"time_eol_unix":0,"base_code":"${base}","rates":{${entries}}}`
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(url);
    if (failure === "hang") return;
    if (failure === "http-500") {
      res.writeHead(500, { "content-type": "text/html" });
      res.end("<html><body><h1>500</h1></body></html>");
      return;
    }
    if (failure === "non-json") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>maintenance</body></html>");
      return;
    }
    if (failure === "error-document") {
      json(res, 200, '{"result":"error","error-type":"too-many-requests"}');
      return;
    }
    const m = /^\/v6\/latest\/([A-Z]{3})$/.exec(url.pathname);
    if (req.method !== "GET" || !m) {
      json(res, 404, '{"result":"error","error-type":"not-found"}');
      return;
    }
    if (m[1] !== "EUR" || !latest) {
      json(res, 404, '{"result":"error","error-type":"unsupported-code"}');
      return;
    }
    const base = failure === "wrong-base" ? "USD" : "EUR";
    json(res, 200, answer(base, latest.date, { [base]: "1", ...latest.rates }));
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
      latest = { date, rates };
    },
    fail(mode) {
      failure = mode;
    },
    clear() {
      latest = null;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
