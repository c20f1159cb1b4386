import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RATES_WIDE_API_URL, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { runScheduledTasks } from "../../src/jobs/tasks";
import {
  refreshAllRates,
  refreshStaleRatesAtStart,
  seedRatesSnapshot,
} from "../../src/modules/exchange/service";
import {
  createExchangeRateApiClient,
  roundToStoredDecimals,
} from "../../src/providers/rates/exchangerate-api";
import { startFakeExchangeRateApi } from "../fakes/exchangerate-api";
import { startFakeFrankfurter } from "../fakes/frankfurter";
import { call, expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

// Issue 21, item 2: rates people can quote with. Two sources (the ECB through a Frankfurter
// fake, the ~160-currency ExchangeRate-API protocol through its fake), refreshed at start-up, by
// an admin and on the schedule; manual rates for any ISO 4217 currency; every answer says how
// old its rate is, and a quotation warns past 7 days.

const ecb = await startFakeFrankfurter();
const wide = await startFakeExchangeRateApi();
afterAll(async () => {
  await ecb.close();
  await wide.close();
});

const ctx = await createTestContext({
  env: { RATES_API_URL: ecb.url, RATES_WIDE_API_URL: wide.url },
});
const user = await registerUser(ctx.app);
const admin = await registerAdmin(ctx);

const DAY = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

const get = (path: string, token = user.accessToken) => call(ctx.app, path, { token });
const asAdmin = (path: string, options: Parameters<typeof call>[2] = {}) =>
  call(ctx.app, path, { token: admin.accessToken, ...options });
const convert = (from: string, to: string, amount = "100") =>
  get(`/api/v1/exchange/convert?amount=${amount}&from=${from}&to=${to}`);
/** A conversion that must succeed, typed by the OpenAPI document (ADR 0095); asserts 200. */
const converted = async (from: string, to: string, amount = "100") => {
  const answer = await typed(ctx.app).get("/api/v1/exchange/convert", {
    token: user.accessToken,
    query: { amount, from, to },
  });
  expectStatus(answer, 200);
  return answer;
};
const ratesOf = async (base: string) => {
  const answer = await typed(ctx.app).get("/api/v1/exchange/rates", {
    token: user.accessToken,
    query: { base },
  });
  expectStatus(answer, 200);
  return answer;
};

/** ECB's ~30 (a few here) and the wide source's ~160 (a few here), as each publishes them. */
const ECB_DAY = { USD: "1.0512", CNY: "7.4613", JPY: "161.23" };
const WIDE_DAY = {
  USD: "1.0498",
  CNY: "7.4555",
  JPY: "161.1",
  AED: "3.8553",
  SAR: "3.9368",
  VND: "26712.5",
  // Not ISO 4217 currencies in circulation: left out.
  FOK: "7.46",
  GGP: "0.8521",
};

async function reset() {
  await queryRows(ctx.deps.db, sql`delete from exchange_rates`);
  await seedRatesSnapshot(ctx.deps);
  ecb.fail(null);
  wide.fail(null);
  ecb.clear();
  wide.clear();
}
beforeEach(reset);

describe("the reproduction: rates beyond the ECB's and fresher than the snapshot", () => {
  it("AED, SAR and VND had no rate (422 unknown_currency); the wide source covers them", async () => {
    for (const to of ["AED", "SAR", "VND"]) {
      const before = await convert("USD", to);
      expect(before.status).toBe(422);
      expect(before.body.code).toBe("no_exchange_rate");
      expect(JSON.stringify(before.body)).not.toContain("unknown_currency");
    }
    wide.publish(today(), WIDE_DAY);
    expect((await refreshAllRates(ctx.deps)).wide).toMatchObject({
      status: "refreshed",
      source: "ExchangeRate-API",
      date: today(),
      currencies: 6,
    });
    // 3.8553 / 1.0498 = 3.672413793103...: 12 significant digits, the trailing 0 trimmed.
    expect((await converted("USD", "AED")).body).toEqual({
      amount: "100",
      from: "USD",
      to: "AED",
      rate: "3.6724137931",
      result: "367.24",
      date: today(),
      source: "ExchangeRate-API",
      age_days: 0,
    });
    expect((await converted("USD", "VND", "1")).body).toMatchObject({ result: "25445" });
    expect((await converted("SAR", "AED", "1")).body).toMatchObject({ source: "ExchangeRate-API" });
  });

  it("a currency no source covers is a 422 no_exchange_rate naming it, never a 500", async () => {
    const res = await convert("USD", "YER");
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: "no_exchange_rate",
      errors: [{ loc: ["query", "to"], type: "no_exchange_rate" }],
    });
    const base = await get("/api/v1/exchange/rates?base=YER");
    expect(base.status).toBe(422);
    expect(base.body.code).toBe("no_exchange_rate");
    // Not a currency at all: still the schema's refusal.
    expect((await convert("USD", "ZZZ")).status).toBe(422);
  });

  it("USD->CNY answered the 2024-01-04 snapshot; the start-up refresh brings the latest day", async () => {
    expect((await converted("USD", "CNY")).body).toMatchObject({
      rate: "7.15146535196",
      date: "2024-01-04",
      source: "ECB (snapshot)",
    });
    ecb.publish(daysAgo(1), ECB_DAY);
    wide.publish(today(), WIDE_DAY);
    const outcome = await refreshStaleRatesAtStart(ctx.deps);
    expect(outcome).toMatchObject({
      ecb: { status: "refreshed", date: daysAgo(1) },
      wide: { status: "refreshed", date: today() },
    });
    // ECB answers the pairs it covers: 7.4613 / 1.0512 = 7.097888127853...
    expect((await converted("USD", "CNY")).body).toMatchObject({
      rate: "7.09788812785",
      date: daysAgo(1),
      source: "ECB",
      age_days: 1,
    });
  });
});

describe("start-up refresh", () => {
  it("leaves sources alone whose newest day is yesterday or today (no request)", async () => {
    ecb.publish(daysAgo(1), ECB_DAY);
    wide.publish(today(), WIDE_DAY);
    await refreshAllRates(ctx.deps);
    const asked = ecb.requests.length + wide.requests.length;
    expect(await refreshStaleRatesAtStart(ctx.deps)).toEqual({
      ecb: { status: "fresh", source: "ECB", date: daysAgo(1) },
      wide: { status: "fresh", source: "ExchangeRate-API", date: today() },
    });
    expect(ecb.requests.length + wide.requests.length).toBe(asked);
  });

  it("is bounded: a source that never answers fails after the timeout, the stored rates stay", async () => {
    ecb.fail("hang");
    wide.fail("hang");
    const started = performance.now();
    const outcome = await refreshStaleRatesAtStart(ctx.deps, 300);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(outcome).toEqual({
      ecb: { status: "failed", source: "ECB", reason: "timeout" },
      wide: { status: "failed", source: "ExchangeRate-API", reason: "timeout" },
    });
    expect((await converted("USD", "CNY")).body).toMatchObject({ source: "ECB (snapshot)" });
  });

  it("one source failing does not stop the other", async () => {
    ecb.fail("http-502");
    wide.publish(today(), WIDE_DAY);
    expect(await refreshStaleRatesAtStart(ctx.deps)).toMatchObject({
      ecb: { status: "failed", reason: "http_status" },
      wide: { status: "refreshed" },
    });
  });
});

describe("precedence", () => {
  it("ECB for pairs it covers while its day is at most 4 days older than the wide one's", async () => {
    ecb.publish(daysAgo(3), ECB_DAY);
    wide.publish(today(), WIDE_DAY);
    await refreshAllRates(ctx.deps);
    expect((await converted("USD", "CNY")).body).toMatchObject({ source: "ECB", age_days: 3 });
    // AED is not the ECB's: the wide source answers, USD included, from one set.
    expect((await converted("USD", "AED")).body).toMatchObject({ source: "ExchangeRate-API" });
  });

  it("the wide source for every pair once the ECB's set is more than 4 days older", async () => {
    wide.publish(today(), WIDE_DAY);
    await refreshAllRates(ctx.deps);
    // Only the 2024 snapshot on the ECB side.
    expect((await converted("USD", "CNY")).body).toMatchObject({
      rate: "7.10182891979",
      source: "ExchangeRate-API",
      age_days: 0,
    });
  });

  it("the rates list says each quote's source, date and age", async () => {
    ecb.publish(daysAgo(2), ECB_DAY);
    wide.publish(today(), WIDE_DAY);
    await refreshAllRates(ctx.deps);
    const res = await ratesOf("USD");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      base: "USD",
      date: daysAgo(2),
      source: "ECB",
      age_days: 2,
      snapshot: false,
    });
    expect(res.body.quotes.CNY).toEqual({ source: "ECB", date: daysAgo(2), age_days: 2 });
    expect(res.body.quotes.AED).toEqual({
      source: "ExchangeRate-API",
      date: today(),
      age_days: 0,
    });
    expect(Object.keys(res.body.rates)).toEqual(Object.keys(res.body.quotes));
    expect(res.body.rates).not.toHaveProperty("FOK");
  });
});

describe("POST /api/v1/admin/exchange-rates/refresh", () => {
  it("refreshes every source now, says what each did, and is audited", async () => {
    ecb.publish(today(), ECB_DAY);
    wide.fail("error-document");
    const res = await asAdmin("/api/v1/admin/exchange-rates/refresh", {
      method: "POST",
      csrf: admin.csrfToken,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ecb: { status: "refreshed", source: "ECB", date: today(), currencies: 3, written: 3 },
      wide: { status: "failed", source: "ExchangeRate-API", reason: "provider_error" },
    });
    const audit = await asAdmin(
      "/api/v1/admin/audit-log?action=exchange_rates.refresh&target_type=exchange_rates",
    );
    expect(audit.body.items[0]).toMatchObject({
      actor_id: admin.userId,
      action: "exchange_rates.refresh",
      changes: { ecb: { before: null, after: { status: "refreshed", date: today() } } },
    });
  });

  it("is admin-only", async () => {
    const res = await call(ctx.app, "/api/v1/admin/exchange-rates/refresh", {
      method: "POST",
      token: user.accessToken,
      csrf: user.csrfToken,
    });
    expect(res.status).toBe(403);
  });
});

describe("the scheduled refresh", () => {
  it("refreshes both sources", async () => {
    ecb.publish(today(), ECB_DAY);
    wide.publish(today(), WIDE_DAY);
    const [outcome] = await runScheduledTasks(ctx.deps, ["refreshRates"]);
    expect(outcome).toMatchObject({
      task: "refreshRates",
      ok: true,
      result: { ecb: { status: "refreshed" }, wide: { status: "refreshed", currencies: 6 } },
    });
  });

  it("fails the run (logged) when a source failed, after the other refreshed", async () => {
    wide.fail("http-500");
    ecb.publish(today(), ECB_DAY);
    const [outcome] = await runScheduledTasks(ctx.deps, ["refreshRates"]);
    expect(outcome).toMatchObject({ task: "refreshRates", ok: false });
    expect((await converted("USD", "CNY")).body).toMatchObject({ source: "ECB", date: today() });
  });
});

describe("manual rates: PUT/DELETE /api/v1/admin/exchange-rates/:currency", () => {
  // Admin routes allow 30 requests a minute per admin: each test writes as its own admin.
  let manager = admin;
  beforeEach(async () => {
    manager = await registerAdmin(ctx);
  });
  const put = (currency: string, json: unknown, session = manager) =>
    call(ctx.app, `/api/v1/admin/exchange-rates/${currency}`, {
      method: "PUT",
      token: session.accessToken,
      csrf: session.csrfToken,
      json,
    });
  const del = (currency: string, session = manager) =>
    call(ctx.app, `/api/v1/admin/exchange-rates/${currency}`, {
      method: "DELETE",
      token: session.accessToken,
      csrf: session.csrfToken,
    });

  it("sets a rate for a currency no source has, used with source manual and its date", async () => {
    expect((await convert("USD", "YER")).status).toBe(422);
    const res = await put("YER", { base: "USD", rate: "250.15" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      currency: "YER",
      base: "USD",
      rate: "250.15",
      date: today(),
      source: "manual",
    });
    expect((await converted("USD", "YER", "10")).body).toEqual({
      amount: "10",
      from: "USD",
      to: "YER",
      rate: "250.15",
      result: "2501.50",
      date: today(),
      source: "manual",
      age_days: 0,
    });
    // Crossed through the base's source rate the other way and from another currency.
    expect((await converted("YER", "USD", "250.15")).body).toMatchObject({
      result: "1.00",
      source: "manual",
    });
    // EUR -> YER = 1.0953 (snapshot EUR->USD) x 250.15; the oldest date used is the snapshot's.
    expect((await converted("EUR", "YER", "1")).body).toMatchObject({
      rate: "273.989295",
      source: "manual",
      date: "2024-01-04",
    });
    const list = await ratesOf("USD");
    expect(list.body.rates.YER).toBe("250.15");
    expect(list.body.quotes.YER).toMatchObject({ source: "manual", date: today() });
    await del("YER");
  });

  it("wins over the sources, and DELETE gives the currency back to them", async () => {
    wide.publish(today(), WIDE_DAY);
    await refreshAllRates(ctx.deps);
    expect((await put("AED", { base: "USD", rate: 3.6725 })).status).toBe(200);
    expect((await converted("USD", "AED")).body).toMatchObject({
      rate: "3.6725",
      result: "367.25",
      source: "manual",
    });
    // Replacing keeps one rate.
    expect((await put("AED", { base: "EUR", rate: "4" })).body).toMatchObject({ base: "EUR" });
    expect((await converted("EUR", "AED")).body).toMatchObject({ rate: "4", source: "manual" });
    const rows = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from exchange_rates where source = 'manual' and quote = 'AED'`,
    );
    expect(rows[0]!.n).toBe(1);
    expect((await del("AED")).status).toBe(204);
    expect((await converted("USD", "AED")).body).toMatchObject({ source: "ExchangeRate-API" });
    const again = await del("AED");
    expect(again.status).toBe(404);
  });

  it("racing PUTs leave one answer (the last set), and DELETE removes every trace", async () => {
    const rates = ["3.61", "3.62", "3.63", "3.64", "3.65", "3.66"];
    const results = await Promise.all(
      rates.map((rate, i) => put("OMR", { base: i % 2 ? "USD" : "EUR", rate })),
    );
    expect(results.map((r) => r.status)).toEqual(rates.map(() => 200));
    const answer = await converted("USD", "OMR", "1");
    expect(answer.status).toBe(200);
    expect(answer.body.source).toBe("manual");
    expect((await del("OMR")).status).toBe(204);
    expect((await convert("USD", "OMR")).body.code).toBe("no_exchange_rate");
  });

  it("is audited with the rate before and after", async () => {
    await put("QAR", { base: "USD", rate: "3.64" });
    await put("QAR", { base: "USD", rate: "3.641" });
    await del("QAR");
    const audit = await asAdmin("/api/v1/admin/audit-log?target_type=exchange_rate&target_id=QAR");
    expect(audit.status).toBe(200);
    const rows = audit.body.items as { action: string; changes: Record<string, unknown> }[];
    expect(rows.map((r) => r.action)).toEqual([
      "exchange_rate.delete",
      "exchange_rate.put",
      "exchange_rate.put",
    ]);
    expect(rows[1]!.changes).toEqual({ rate: { before: "3.64", after: "3.641" } });
    expect(rows[2]!.changes).toEqual({
      base: { before: null, after: "USD" },
      rate: { before: null, after: "3.64" },
      date: { before: null, after: today() },
    });
    expect(rows[0]!.changes).toEqual({
      base: { before: "USD", after: null },
      rate: { before: "3.641", after: null },
      date: { before: today(), after: null },
    });
  });

  it("refuses what is not an ISO 4217 code or not a sane positive rate (422, nothing stored)", async () => {
    const bad: [string, unknown][] = [
      ["ZZZ", { base: "USD", rate: "1" }],
      ["AED", { base: "ZZZ", rate: "1" }],
      ["AED", { base: "AED", rate: "1" }],
      ["AED", { base: "USD", rate: "0" }],
      ["AED", { base: "USD", rate: "-3.67" }],
      ["AED", { base: "USD", rate: "1e3" }],
      ["AED", { base: "USD", rate: "NaN" }],
      ["AED", { base: "USD", rate: "Infinity" }],
      ["AED", { base: "USD", rate: "0.0000000000001" }],
      ["AED", { base: "USD", rate: "1000000000.5" }],
      ["AED", { base: "USD", rate: 0 }],
      ["AED", { base: "USD" }],
      ["AED", { rate: "3.67" }],
      ["AED", { base: "USD", rate: "3.67", date: "2020-01-01" }],
    ];
    for (const [currency, json] of bad) {
      const res = await put(currency, json);
      expect(res.status, `${currency} ${JSON.stringify(json)}`).toBe(422);
    }
    const rows = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from exchange_rates where source = 'manual'`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it("takes a lower-case code and trims trailing zeros", async () => {
    expect((await put("sar", { base: "usd", rate: "3.750000" })).body).toMatchObject({
      currency: "SAR",
      base: "USD",
      rate: "3.75",
    });
    expect((await del("sar")).status).toBe(204);
  });

  it("is admin-only", async () => {
    expect((await put("AED", { base: "USD", rate: "3.67" }, user)).status).toBe(403);
    expect((await del("AED", user)).status).toBe(403);
  });
});

describe("quotations say how old their rates are and warn past 7 days", () => {
  async function quoteUsdProductInCny() {
    const api = (path: string, json?: unknown) =>
      call(ctx.app, path, { token: user.accessToken, json });
    const product = await api("/api/v1/products", {
      name: "Cup",
      sku: `CUP-${Math.random()}`,
      price: 1299,
      currency: "USD",
    });
    const q = await api("/api/v1/quotations", {
      currency: "CNY",
      items: [{ product_id: product.body.id, quantity: 1 }],
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    return q.body;
  }

  it("a quotation priced at the 2024 snapshot carries its age and a stale_exchange_rate warning", async () => {
    const q = await quoteUsdProductInCny();
    const rate = q.exchange_rates[0];
    expect(rate).toMatchObject({ from: "USD", to: "CNY", date: "2024-01-04" });
    expect(rate.age_days).toBeGreaterThan(7);
    expect(q.warnings).toEqual([
      {
        code: "stale_exchange_rate",
        detail: expect.stringContaining("USD/CNY rate (ECB (snapshot), 2024-01-04)"),
      },
    ]);
    const list = await get("/api/v1/quotations");
    const listed = list.body.items.find((i: { id: string }) => i.id === q.id);
    expect(listed.warnings).toHaveLength(1);
  });

  it("a fresh rate: its age and no warning", async () => {
    ecb.publish(today(), ECB_DAY);
    await refreshAllRates(ctx.deps);
    const q = await quoteUsdProductInCny();
    expect(q.exchange_rates[0]).toMatchObject({ date: today(), source: "ECB", age_days: 0 });
    expect(q.warnings).toEqual([]);
  });
});

describe("the ExchangeRate-API client", () => {
  it("defaults to its public host outside tests, off disables, tests stay offline", () => {
    expect(parseConfig({ APP_ENV: "development" }).RATES_WIDE_API_URL).toBe(
      DEFAULT_RATES_WIDE_API_URL,
    );
    expect(
      parseConfig({ APP_ENV: "development", RATES_WIDE_API_URL: "off" }).RATES_WIDE_API_URL,
    ).toBe("");
    expect(parseConfig({ APP_ENV: "test" }).RATES_WIDE_API_URL).toBe("");
    expect(() => parseConfig({ RATES_WIDE_API_URL: "sometimes" })).toThrow(/RATES_WIDE_API_URL/);
    expect(() =>
      parseConfig({ APP_ENV: "production", RATES_WIDE_API_URL: "http://rates.example" }),
    ).toThrow(/RATES_WIDE_API_URL: must be an https:\/\/ URL/);
  });

  it("reads GET /v6/latest/EUR exactly, dated by time_last_update_unix, ISO codes only", async () => {
    wide.publish("2026-11-20", { ...WIDE_DAY, IRR: "0.000000000000123456", KWD: "0.3232" });
    const client = createExchangeRateApiClient({
      baseUrl: wide.url,
      isCurrency: (c) => !["FOK", "GGP"].includes(c),
    });
    const before = wide.requests.length;
    const day = await client.latest("EUR");
    expect(wide.requests.slice(before).map((u) => u.pathname)).toEqual(["/v6/latest/EUR"]);
    expect(day.date).toBe("2026-11-20");
    expect(day.rates).toEqual({
      AED: "3.8553",
      CNY: "7.4555",
      JPY: "161.1",
      KWD: "0.3232",
      SAR: "3.9368",
      USD: "1.0498",
      VND: "26712.5",
    });
  });

  it("refuses an error document, a wrong base, a non-JSON page and an HTTP error", async () => {
    wide.publish(today(), WIDE_DAY);
    const client = createExchangeRateApiClient({ baseUrl: wide.url });
    const cases = [
      ["error-document", "provider_error"],
      ["wrong-base", "bad_response"],
      ["non-json", "bad_response"],
      ["http-500", "http_status"],
    ] as const;
    for (const [mode, reason] of cases) {
      wide.fail(mode);
      await expect(client.latest("EUR")).rejects.toMatchObject({
        name: "RatesUnavailableError",
        reason,
      });
    }
    wide.fail(null);
    await expect(client.latest("USD")).rejects.toMatchObject({ reason: "provider_error" });
  });

  it("rounds rates finer than the store keeps to 12 decimals, half-even", () => {
    expect(roundToStoredDecimals("3.6725")).toBe("3.6725");
    expect(roundToStoredDecimals("0.0000237412345675")).toBe("0.000023741235");
    expect(roundToStoredDecimals("0.0000000000005")).toBe("0");
    expect(roundToStoredDecimals("0.0000000000015")).toBe("0.000000000002");
    expect(roundToStoredDecimals("1.0000000000005")).toBe("1");
  });
});
