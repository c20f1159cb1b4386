/**
 * Client for the Frankfurter API, version 1: the ECB euro foreign exchange reference rates
 * (https://www.frankfurter.dev/v1/). Edge-safe: fetch only. Provider code only: no database,
 * no config reading.
 *
 *   GET {baseUrl}/latest?base=EUR        the latest working day's rates
 *   GET {baseUrl}/{YYYY-MM-DD}?base=EUR  the rates of that day, or of the working day before it
 *
 * Both answer `{"amount": 1.0, "base": "EUR", "date": "2024-01-04", "rates": {"USD": 1.0953,
 * ...}}`. `baseUrl` includes the version prefix, e.g. `https://api.frankfurter.dev/v1` (a
 * self-hosted Frankfurter serves the same paths). The response's `base` must be the one asked
 * for and `amount` must be 1, or the answer is refused as a bad response.
 *
 * Rates are decimal strings end to end: the numbers are read from the raw JSON text, never
 * through a binary float, and the float JSON.parse gives is only used to cross-check them.
 */
import { z } from "zod";

export const RATES_SOURCE_ECB = "ECB";

/** ISO 4217 alphabetic code. */
const CURRENCY_RE = /^[A-Z]{3}$/;
const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
/** A JSON number literal, as the grammar of RFC 8259 allows it. */
const JSON_NUMBER_RE = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

interface RatesSnapshot {
  /** Currency the rates are quoted against (one unit of `base` buys `rate` units of quote). */
  base: string;
  /** Publication day, YYYY-MM-DD. */
  date: string;
  /** Quote currency -> exact decimal string, e.g. `{"USD": "1.0953"}`; base not included. */
  rates: Record<string, string>;
}

export interface RatesClient {
  /** The latest published rates, `GET /latest?base=`. */
  latest(base?: string): Promise<RatesSnapshot>;
  /** The rates of a day (or of the last working day before it), `GET /{date}?base=`. */
  onDate(date: string, base?: string): Promise<RatesSnapshot>;
}

export type RatesUnavailableReason =
  | "network"
  | "timeout"
  | "http_status"
  | "bad_response"
  | "rate_limited"
  /** The provider answered with its own error document (e.g. an unsupported code). */
  | "provider_error";

/** The rates provider could not be reached or answered unusably. */
export class RatesUnavailableError extends Error {
  readonly reason: RatesUnavailableReason;
  readonly status?: number;
  constructor(reason: RatesUnavailableReason, details: { status?: number } = {}) {
    super(
      `The exchange rates provider is unavailable: ${reason}${
        details.status !== undefined ? ` (HTTP ${details.status})` : ""
      }`,
    );
    this.name = "RatesUnavailableError";
    this.reason = reason;
    if (details.status !== undefined) this.status = details.status;
  }
}

/**
 * One JSON GET to a rates source within `timeoutMs`: its status and text, or
 * RatesUnavailableError (no `cause`: transport details stay out of errors that may reach a log).
 */
export async function getRatesDocument(
  doFetch: typeof fetch,
  url: URL,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await doFetch(url, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "follow",
      signal,
    });
    return { status: res.status, text: await res.text() };
  } catch {
    throw new RatesUnavailableError(signal.aborted ? "timeout" : "network");
  }
}

/** A request the provider can never answer (bad currency code or date); nothing was sent. */
export class RatesRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RatesRequestError";
  }
}

const responseSchema = z.object({
  amount: z.number().positive(),
  base: z.string().regex(CURRENCY_RE),
  date: z.string().regex(DATE_RE),
  rates: z.record(z.string().regex(CURRENCY_RE), z.number().positive().finite()),
});

/**
 * A JSON number literal as a plain decimal string (no exponent, no superfluous zeros):
 * `1.0953` -> `1.0953`, `1.2e-5` -> `0.000012`, `15301.520` -> `15301.52`.
 */
export function decimalFromJsonNumber(literal: string): string {
  const m = JSON_NUMBER_RE.exec(literal);
  if (!m) throw new Error(`not a JSON number: ${literal}`);
  const negative = literal.startsWith("-");
  const [mantissa, exp = "0"] = literal.replace(/^-/, "").split(/[eE]/) as [string, string?];
  const [intPart, fracPart = ""] = mantissa.split(".") as [string, string?];
  let digits = `${intPart}${fracPart}`;
  let point = intPart.length + Number.parseInt(exp, 10);
  if (point <= 0) {
    digits = `${"0".repeat(1 - point)}${digits}`;
    point = 1;
  } else if (point > digits.length) {
    digits = digits.padEnd(point, "0");
  }
  let whole = digits.slice(0, point).replace(/^0+(?=\d)/, "");
  const frac = digits.slice(point).replace(/0+$/, "");
  if (whole === "") whole = "0";
  const out = frac ? `${whole}.${frac}` : whole;
  return negative && out !== "0" ? `-${out}` : out;
}

/**
 * The `rates` object's number literals, read from the raw text. Returns undefined when the
 * text does not have the one flat `"rates": {"XXX": number, ...}` object the protocol has.
 */
export function rawRates(text: string): Record<string, string> | undefined {
  const blocks = [...text.matchAll(/"rates"\s*:\s*\{([^{}]*)\}/g)];
  if (blocks.length !== 1) return undefined;
  const body = blocks[0]![1]!.trim();
  const out: Record<string, string> = {};
  if (body === "") return out;
  for (const entry of body.split(",")) {
    const m = /^\s*"([A-Z]{3})"\s*:\s*(-?[0-9][0-9.eE+-]*)\s*$/.exec(entry);
    if (!m || !JSON_NUMBER_RE.test(m[2]!)) return undefined;
    if (Object.hasOwn(out, m[1]!)) return undefined;
    out[m[1]!] = decimalFromJsonNumber(m[2]!);
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface FrankfurterClientOptions {
  /** e.g. `https://api.frankfurter.dev/v1`; a path prefix is kept. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Whole-request deadline, body included. Default 10000 ms. */
  timeoutMs?: number;
}

export function createFrankfurterClient(opts: FrankfurterClientOptions): RatesClient {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const root = opts.baseUrl.replace(/\/+$/, "");

  async function get(path: string, base: string): Promise<RatesSnapshot> {
    if (!CURRENCY_RE.test(base)) throw new RatesRequestError("base must be an ISO 4217 code");
    const url = new URL(`${root}${path}`);
    url.searchParams.set("base", base);
    const { status, text } = await getRatesDocument(doFetch, url, timeoutMs);
    if (status === 429) throw new RatesUnavailableError("rate_limited", { status });
    if (status < 200 || status >= 300) throw new RatesUnavailableError("http_status", { status });

    const parsed = responseSchema.safeParse(parseJson(text));
    if (!parsed.success || parsed.data.amount !== 1 || parsed.data.base !== base) {
      throw new RatesUnavailableError("bad_response", { status });
    }
    const exact = rawRates(text);
    if (!exact) throw new RatesUnavailableError("bad_response", { status });
    const floats = parsed.data.rates;
    const keys = Object.keys(floats);
    const consistent =
      keys.length > 0 &&
      keys.length === Object.keys(exact).length &&
      keys.every((k) => exact[k] !== undefined && Number(exact[k]) === floats[k]);
    if (!consistent) throw new RatesUnavailableError("bad_response", { status });
    delete exact[base];
    return { base, date: parsed.data.date, rates: exact };
  }

  return {
    latest(base = "EUR") {
      return get("/latest", base);
    },
    onDate(date, base = "EUR") {
      if (!DATE_RE.test(date))
        return Promise.reject(new RatesRequestError("date must be YYYY-MM-DD"));
      return get(`/${date}`, base);
    },
  };
}
