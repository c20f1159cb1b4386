import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { refreshExchangeRates, seedRatesSnapshot } from "../../src/modules/exchange/service";
import { RATES_SNAPSHOT } from "../../src/modules/exchange/snapshot";
import {
  createFrankfurterClient,
  RatesUnavailableError,
} from "../../src/providers/rates/frankfurter";
import { startFakeFrankfurter } from "../fakes/frankfurter";
import { call, expectStatus, registerUser, api as typed } from "../support/client";
import { createTestContext } from "../support/harness";

/** Whole days from a rate's date to today (UTC), as conversions say it (`age_days`). */
const ageOf = (date: string) =>
  Math.round((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(date)) / 86_400_000);

const ctx = await createTestContext();
const { app, deps } = ctx;
const fake = await startFakeFrankfurter();
const client = createFrankfurterClient({ baseUrl: fake.url, timeoutMs: 1000 });
afterAll(() => fake.close());

// ---------------------------------------------------------------------------------------------
// Independent exact arithmetic (BigInt rationals), to check the SQL against
// ---------------------------------------------------------------------------------------------

interface Fraction {
  n: bigint;
  d: bigint;
}
const TEN = 10n;
const pow10 = (e: number) => TEN ** BigInt(e);

function fraction(decimal: string): Fraction {
  const [whole, frac = ""] = decimal.split(".");
  return { n: BigInt(`${whole}${frac}`), d: pow10(frac.length) };
}
const mul = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d, d: a.d * b.n });

/** a (> 0) rounded half to even at `scale` decimals (scale may be negative), as k·10^-scale. */
function halfEven(a: Fraction, scale: number): { k: bigint; scale: number } {
  const num = scale >= 0 ? a.n * pow10(scale) : a.n;
  const den = scale >= 0 ? a.d : a.d * pow10(-scale);
  let k = num / den;
  const twice = 2n * (num - k * den);
  if (twice > den || (twice === den && k % 2n === 1n)) k += 1n;
  return { k, scale };
}

/** k·10^-scale as a decimal string with exactly max(scale, 0) decimals. */
function format({ k, scale }: { k: bigint; scale: number }): string {
  if (scale <= 0) return (k * pow10(-scale)).toString();
  const digits = k.toString().padStart(scale + 1, "0");
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
const trim = (s: string) => (s.includes(".") ? s.replace(/0+$/, "").replace(/\.$/, "") : s);

/** floor(log10(a)) for a > 0, exactly. */
function exponent(a: Fraction): number {
  let e = a.n.toString().length - a.d.toString().length;
  const at = (x: number) => (x >= 0 ? a.n >= a.d * pow10(x) : a.n * pow10(-x) >= a.d); // a >= 10^x
  while (!at(e)) e -= 1;
  while (at(e + 1)) e += 1;
  return e;
}

/** The documented cross rate: EUR->to / EUR->from to 12 significant digits, half-even. */
function expectedRate(eurToFrom: string, eurToTo: string): string {
  const ratio = div(fraction(eurToTo), fraction(eurToFrom));
  return trim(format(halfEven(ratio, 11 - exponent(ratio))));
}

function expectedResult(amount: string, rate: string, decimals: number): string {
  return format(halfEven(mul(fraction(amount), fraction(rate)), decimals));
}

const snapshotRates: Record<string, string> = { EUR: "1", ...RATES_SNAPSHOT.rates };

async function clearRates() {
  await queryRows(deps.db, sql`delete from exchange_rates`);
}
async function countRates(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from exchange_rates`,
  );
  return row!.n;
}

const user = await registerUser(app);
const get = (path: string) => call(app, path, { token: user.accessToken });
/** The success paths, typed by the OpenAPI document (ADR 0095); error paths use `get`. */
const token = user.accessToken;
const rates = async (base?: string) => {
  const answer = await typed(app).get("/api/v1/exchange/rates", { token, query: { base } });
  expectStatus(answer, 200);
  return answer;
};
const convert = async (amount: string, from: string, to: string) => {
  const answer = await typed(app).get("/api/v1/exchange/convert", {
    token,
    query: { amount, from, to },
  });
  expectStatus(answer, 200);
  return answer;
};

describe("exchange rates", () => {
  it("answers 503 with a clear detail while no rates are loaded", async () => {
    await clearRates();
    const rates = await get("/api/v1/exchange/rates?base=USD");
    expect(rates.status).toBe(503);
    expect(rates.body.detail).toMatch(/no exchange rates/i);
    const conv = await get("/api/v1/exchange/convert?amount=100&from=USD&to=CNY");
    expect(conv.status).toBe(503);
    expect(conv.body.detail).toMatch(/no exchange rates/i);
  });

  it("needs an access token", async () => {
    expect((await call(app, "/api/v1/exchange/rates")).status).toBe(401);
    expect((await call(app, "/api/v1/exchange/convert?amount=1&from=USD&to=EUR")).status).toBe(401);
    expect((await call(app, "/api/v1/exchange/rates", { token: "not-a-token" })).status).toBe(401);
  });

  it("seeds the shipped snapshot's day once, beside rows already there", async () => {
    await clearRates();
    expect(await seedRatesSnapshot(deps)).toEqual({ inserted: 30 });
    expect(await seedRatesSnapshot(deps)).toEqual({ inserted: 0 });
    expect(await countRates()).toBe(30);
    const [row] = await queryRows<{ rate: string; source: string; date: string }>(
      deps.db,
      sql`select rate::text as rate, source, date::text as date from exchange_rates
          where base = 'EUR' and quote = 'THB'`,
    );
    expect(row).toEqual({ rate: "37.750000000000", source: "ECB (snapshot)", date: "2024-01-04" });

    // Rows a provider wrote are kept; the snapshot's day is added beside them, and the newest
    // day still answers.
    await clearRates();
    await queryRows(
      deps.db,
      sql`insert into exchange_rates (base, quote, date, source, rate)
          values ('EUR', 'USD', '2024-02-01', 'ECB', 1.08)`,
    );
    expect(await seedRatesSnapshot(deps)).toEqual({ inserted: 30 });
    expect(await countRates()).toBe(31);
    expect((await rates()).body).toMatchObject({
      date: "2024-02-01",
      source: "ECB",
      snapshot: false,
    });
    await clearRates();
    await seedRatesSnapshot(deps);
  });

  it("lists the snapshot for EUR as published, with its date and source", async () => {
    const res = await rates();
    expect(res.body.base).toBe("EUR");
    expect(res.body.date).toBe("2024-01-04");
    expect(res.body.source).toBe("ECB (snapshot)");
    expect(res.body.snapshot).toBe(true);
    const published = Object.fromEntries(
      Object.entries(RATES_SNAPSHOT.rates).map(([q, r]) => [q, trim(r)]),
    );
    expect(res.body.rates).toEqual(published);
  });

  it("cross-computes every base exactly from the EUR rates", async () => {
    for (const base of ["USD", "CNY", "JPY", "IDR", "GBP"]) {
      const res = await rates(base.toLowerCase());
      expect(res.body).toMatchObject({ base, date: "2024-01-04", source: "ECB (snapshot)" });
      const expected: Record<string, string> = {};
      for (const [quote, rate] of Object.entries(snapshotRates)) {
        if (quote !== base) expected[quote] = expectedRate(snapshotRates[base]!, rate);
      }
      expect(res.body.rates).toEqual(expected);
    }
    // Spot checks worked out with Python decimal: 7.8330 / 1.0953, 1 / 1.0953, 1.0953 / 16994.46.
    const usd = await rates("USD");
    expect(usd.body.rates.CNY).toBe("7.15146535196");
    expect(usd.body.rates.EUR).toBe("0.912991874372");
    const idr = await rates("IDR");
    expect(idr.body.rates.USD).toBe("0.0000644504150176");
  });

  it("converts with an exact result rounded to the target's minor unit", async () => {
    const res = await convert("100", "USD", "CNY");
    const rate = expectedRate(snapshotRates.USD!, snapshotRates.CNY!);
    expect(res.body).toEqual({
      amount: "100",
      from: "USD",
      to: "CNY",
      rate,
      result: expectedResult("100", rate, 2),
      date: "2024-01-04",
      source: "ECB (snapshot)",
      age_days: ageOf("2024-01-04"),
    });
    expect(res.body.result).toBe("715.15");

    const cases: [string, string, string, number][] = [
      ["1234.56", "USD", "JPY", 0],
      ["0.01", "CNY", "KRW", 0],
      ["999999999999999.99999999", "IDR", "GBP", 2],
      ["19.99", "EUR", "HKD", 2],
      ["0", "GBP", "USD", 2],
      ["7", "ISK", "CHF", 2],
    ];
    for (const [amount, from, to, decimals] of cases) {
      const r = await convert(amount, from, to);
      const expectedRateValue = expectedRate(snapshotRates[from]!, snapshotRates[to]!);
      expect(r.body.rate).toBe(expectedRateValue);
      expect(r.body.result).toBe(expectedResult(amount, expectedRateValue, decimals));
      if (decimals === 0) expect(r.body.result).not.toContain(".");
      else expect(r.body.result).toMatch(/\.\d{2}$/);
    }
  });

  it("answers rate 1 for the same currency and rounds ties to even", async () => {
    const same = await convert("10.005", "usd", "usd");
    expect(same.body).toMatchObject({ from: "USD", to: "USD", rate: "1", result: "10.00" });
    const odd = await convert("10.015", "USD", "USD");
    expect(odd.body.result).toBe("10.02");
    const yen = await convert("2.5", "JPY", "JPY");
    expect(yen.body.result).toBe("2");
    const yen2 = await convert("3.5", "JPY", "JPY");
    expect(yen2.body.result).toBe("4");
  });

  it("refuses unknown currencies and malformed amounts with 422", async () => {
    const unknown = [
      ["/api/v1/exchange/rates?base=XXX", "base"],
      ["/api/v1/exchange/convert?amount=1&from=XXX&to=USD", "from"],
      ["/api/v1/exchange/convert?amount=1&from=USD&to=ABC", "to"],
    ] as const;
    for (const [path, field] of unknown) {
      const res = await get(path);
      expect(res.status).toBe(422);
      expect(res.body.errors[0].loc).toEqual(["query", field]);
    }
    const malformed = [
      "/api/v1/exchange/rates?base=US",
      "/api/v1/exchange/rates?base=U$D",
      "/api/v1/exchange/convert?from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=1&to=CNY",
      "/api/v1/exchange/convert?amount=abc&from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=-1&from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=1e3&from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=1.123456789&from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=1234567890123456&from=USD&to=CNY",
      "/api/v1/exchange/convert?amount=01&from=USD&to=CNY",
    ];
    for (const path of malformed) {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect(res.body.errors.length).toBeGreaterThan(0);
    }
  });
});

describe("refresh from the rates provider", () => {
  it("skips without a configured provider", async () => {
    expect(await refreshExchangeRates(deps)).toEqual({
      status: "skipped",
      reason: "not_configured",
    });
  });

  it("upserts the latest day in one go and is idempotent", async () => {
    fake.publish("2024-01-05", { USD: "1.25", JPY: "162.5", CNY: "7.8", GBP: "0.8625" });
    const before = await countRates();
    const first = await refreshExchangeRates(deps, client);
    expect(first).toEqual({
      status: "refreshed",
      date: "2024-01-05",
      source: "ECB",
      currencies: 4,
      written: 4,
    });
    expect(await countRates()).toBe(before + 4);
    const second = await refreshExchangeRates(deps, client);
    expect(second).toMatchObject({ status: "refreshed", written: 0 });
    expect(await countRates()).toBe(before + 4);

    const eur = await rates("EUR");
    const day = { source: "ECB", date: "2024-01-05", age_days: ageOf("2024-01-05") };
    expect(eur.body).toEqual({
      base: "EUR",
      date: "2024-01-05",
      source: "ECB",
      age_days: ageOf("2024-01-05"),
      snapshot: false,
      rates: { CNY: "7.8", GBP: "0.8625", JPY: "162.5", USD: "1.25" },
      quotes: { CNY: day, GBP: day, JPY: day, USD: day },
    });

    // A corrected publication replaces only the rate that changed.
    fake.publish("2024-01-05", { USD: "1.25", JPY: "162.5", CNY: "7.8", GBP: "0.8626" });
    expect(await refreshExchangeRates(deps, client)).toMatchObject({ written: 1 });
    expect((await rates()).body.rates.GBP).toBe("0.8626");
  });

  it("rounds converted ties half to even with the refreshed rates", async () => {
    const cases: [string, string, string, string][] = [
      ["0.1", "EUR", "USD", "0.12"], // 0.125
      ["0.3", "EUR", "USD", "0.38"], // 0.375
      ["1", "EUR", "JPY", "162"], // 162.5
      ["3", "EUR", "JPY", "488"], // 487.5
      ["0.5", "USD", "JPY", "65"], // rate 130
      ["0.1", "USD", "CNY", "0.62"], // rate 6.24 -> 0.624
    ];
    for (const [amount, from, to, result] of cases) {
      const res = await convert(amount, from, to);
      expect(res.body).toMatchObject({ result, date: "2024-01-05", source: "ECB" });
    }
    // Currencies the newest day does not carry are unknown, not answered from an older day.
    expect((await get("/api/v1/exchange/convert?amount=1&from=USD&to=THB")).status).toBe(422);
  });

  it("keeps what it has when the provider fails", async () => {
    const before = await countRates();
    fake.fail("http-502");
    await expect(refreshExchangeRates(deps, client)).rejects.toBeInstanceOf(RatesUnavailableError);
    fake.fail("hang");
    const impatient = createFrankfurterClient({ baseUrl: fake.url, timeoutMs: 200 });
    await expect(refreshExchangeRates(deps, impatient)).rejects.toMatchObject({
      reason: "timeout",
    });
    fake.fail(null);
    expect(await countRates()).toBe(before);
    expect((await rates()).body.date).toBe("2024-01-05");
  });

  it("prefers the provider's rows over the snapshot on the same day", async () => {
    await queryRows(
      deps.db,
      sql`insert into exchange_rates (base, quote, date, source, rate)
          values ('EUR', 'USD', '2024-01-05', 'ECB (snapshot)', 2)`,
    );
    const res = await rates();
    expect(res.body).toMatchObject({ date: "2024-01-05", source: "ECB" });
    expect(res.body.rates.USD).toBe("1.25");
  });
});
