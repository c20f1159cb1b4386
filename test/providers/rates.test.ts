import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ratesClientFromEnv } from "../../src/providers/rates";
import {
  createFrankfurterClient,
  decimalFromJsonNumber,
  type RatesClient,
  RatesRequestError,
  RatesUnavailableError,
  rawRates,
} from "../../src/providers/rates/frankfurter";
import { type FakeFrankfurter, startFakeFrankfurter } from "../fakes/frankfurter";
import { testConfig } from "../support/harness";

let fake: FakeFrankfurter;
let client: RatesClient;

beforeAll(async () => {
  fake = await startFakeFrankfurter();
  fake.publish("2024-01-03", { USD: "1.0919", JPY: "155.86", CNY: "7.8069" });
  // Literals a float would spoil or print differently: trailing zeros, many digits, exponents.
  fake.publish("2024-01-04", {
    USD: "1.0953",
    JPY: "157.91",
    THB: "37.750",
    IDR: "16994.46",
    XAU: "0.000482117",
    TST: "1.2e-5",
    BIG: "1.23456789012",
  });
  client = createFrankfurterClient({ baseUrl: `${fake.url}/`, timeoutMs: 1000 });
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.fail(null);
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

describe("decimal literals", () => {
  it("turns JSON number literals into plain decimal strings without a float", () => {
    expect(decimalFromJsonNumber("1.0953")).toBe("1.0953");
    expect(decimalFromJsonNumber("37.750")).toBe("37.75");
    expect(decimalFromJsonNumber("1.0")).toBe("1");
    expect(decimalFromJsonNumber("0")).toBe("0");
    expect(decimalFromJsonNumber("1.2e-5")).toBe("0.000012");
    expect(decimalFromJsonNumber("1.5E+3")).toBe("1500");
    expect(decimalFromJsonNumber("12345e-2")).toBe("123.45");
    expect(decimalFromJsonNumber("0.1e1")).toBe("1");
    expect(decimalFromJsonNumber("123456789012345678901234567890.5")).toBe(
      "123456789012345678901234567890.5",
    );
    expect(() => decimalFromJsonNumber("01")).toThrow();
    expect(() => decimalFromJsonNumber("1.")).toThrow();
  });

  it("reads only one flat rates object", () => {
    expect(rawRates('{"rates":{"USD":1.10,"JPY":160}}')).toEqual({ USD: "1.1", JPY: "160" });
    expect(rawRates('{"rates":{}}')).toEqual({});
    expect(rawRates('{"rates":{"USD":"1.1"}}')).toBeUndefined();
    expect(rawRates('{"rates":{"USD":1,"USD":2}}')).toBeUndefined();
    expect(rawRates('{"a":{"rates":{"USD":1}},"rates":{"USD":2}}')).toBeUndefined();
  });
});

describe("createFrankfurterClient", () => {
  it("reads the latest day with the documented query, rates as exact strings", async () => {
    const latest = await client.latest();
    expect(latest).toEqual({
      base: "EUR",
      date: "2024-01-04",
      rates: {
        BIG: "1.23456789012",
        IDR: "16994.46",
        JPY: "157.91",
        THB: "37.75",
        TST: "0.000012",
        USD: "1.0953",
        XAU: "0.000482117",
      },
    });
    const request = fake.requests.at(-1)!;
    expect(request.pathname).toBe("/latest");
    expect(request.searchParams.get("base")).toBe("EUR");
  });

  it("reads a given day, and the last published day before a day without rates", async () => {
    const day = await client.onDate("2024-01-03");
    expect(day).toEqual({
      base: "EUR",
      date: "2024-01-03",
      rates: { CNY: "7.8069", JPY: "155.86", USD: "1.0919" },
    });
    expect(fake.requests.at(-1)!.pathname).toBe("/2024-01-03");
    expect((await client.onDate("2024-01-06")).date).toBe("2024-01-04");
  });

  it("refuses malformed dates and bases before sending anything", async () => {
    const before = fake.requests.length;
    expect(await rejection(client.onDate("2024-1-3"))).toBeInstanceOf(RatesRequestError);
    expect(await rejection(client.latest("usd"))).toBeInstanceOf(RatesRequestError);
    expect(fake.requests.length).toBe(before);
  });

  it("maps every failure to RatesUnavailableError with its reason", async () => {
    fake.fail("http-502");
    const bad = await rejection(client.latest());
    expect(bad).toBeInstanceOf(RatesUnavailableError);
    expect(bad).toMatchObject({ reason: "http_status", status: 502 });

    fake.fail("non-json");
    expect(await rejection(client.latest())).toMatchObject({ reason: "bad_response" });

    fake.fail("wrong-base");
    expect(await rejection(client.latest())).toMatchObject({ reason: "bad_response" });

    fake.fail(null);
    expect(await rejection(client.onDate("1990-01-01"))).toMatchObject({
      reason: "http_status",
      status: 404,
    });

    const down = createFrankfurterClient({ baseUrl: "http://127.0.0.1:1", timeoutMs: 1000 });
    expect(await rejection(down.latest())).toMatchObject({ reason: "network" });
  });

  it("times out on a provider that never answers", async () => {
    fake.fail("hang");
    const impatient = createFrankfurterClient({ baseUrl: fake.url, timeoutMs: 200 });
    const started = Date.now();
    const err = await rejection(impatient.latest());
    expect(err).toBeInstanceOf(RatesUnavailableError);
    expect(err).toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("refuses a body whose rates are not the protocol's numbers", async () => {
    const bodies = [
      '{"amount":1.0,"base":"EUR","date":"2024-01-04","rates":{"USD":"1.0953"}}',
      '{"amount":1.0,"base":"EUR","date":"2024-01-04","rates":{"USD":-1.0953}}',
      '{"amount":1.0,"base":"EUR","date":"2024-01-04","rates":{}}',
      '{"amount":2.0,"base":"EUR","date":"2024-01-04","rates":{"USD":2.19}}',
      '{"amount":1.0,"base":"EUR","date":"04.01.2024","rates":{"USD":1.0953}}',
    ];
    for (const body of bodies) {
      const canned = createFrankfurterClient({
        baseUrl: "http://rates.invalid",
        fetch: async () => new Response(body, { status: 200 }),
      });
      expect(await rejection(canned.latest())).toMatchObject({ reason: "bad_response" });
    }
  });

  it("is not configured until RATES_API_URL exists", () => {
    expect(ratesClientFromEnv({ config: testConfig(), fetch })).toBeNull();
  });
});
