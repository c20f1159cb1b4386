import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_RATES_API_URL, parseConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { runScheduledTasks } from "../../src/jobs/tasks";
import { refreshExchangeRates, seedRatesSnapshot } from "../../src/modules/exchange/service";
import { RATES_SNAPSHOT } from "../../src/modules/exchange/snapshot";
import { SNAPSHOT_DATA } from "../../src/modules/exchange/snapshot-data";
import { RatesUnavailableError } from "../../src/providers/rates/frankfurter";
import {
  SNAPSHOT_FILE,
  snapshotSource,
  writeRatesSnapshot,
} from "../../src/runtime/node/rates-snapshot";
import { startFakeFrankfurter } from "../fakes/frankfurter";
import { call, registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// The refresh as the service runs it: RATES_API_URL from config, the outbound policy's fetch,
// a fake Frankfurter on 127.0.0.1, and the shipped snapshot when the source cannot be reached.

const fake = await startFakeFrankfurter();
// A port nothing listens on: a closed fake.
const gone = await startFakeFrankfurter();
const goneUrl = gone.url;
await gone.close();
afterAll(() => fake.close());

const ctx = await createTestContext({ env: { RATES_API_URL: fake.url } });
const user = await registerUser(ctx.app);
const rates = (app = ctx.app) => call(app, "/api/v1/exchange/rates", { token: user.accessToken });

async function resetToSnapshot() {
  await queryRows(ctx.deps.db, sql`delete from exchange_rates`);
  await seedRatesSnapshot(ctx.deps);
}

describe("RATES_API_URL", () => {
  it("defaults to the public ECB rates through Frankfurter; off disables; tests stay offline", () => {
    expect(DEFAULT_RATES_API_URL).toBe("https://api.frankfurter.dev/v1");
    expect(parseConfig({ APP_ENV: "development" }).RATES_API_URL).toBe(DEFAULT_RATES_API_URL);
    expect(parseConfig({ APP_ENV: "development", RATES_API_URL: " off " }).RATES_API_URL).toBe("");
    expect(parseConfig({ APP_ENV: "test" }).RATES_API_URL).toBe("");
    expect(
      parseConfig({ APP_ENV: "development", RATES_API_URL: "https://rates.example/v1" })
        .RATES_API_URL,
    ).toBe("https://rates.example/v1");
  });

  it("refuses a value that is neither a URL nor off, naming the setting", () => {
    expect(() => parseConfig({ RATES_API_URL: "sometimes" })).toThrow(ConfigError);
    expect(() => parseConfig({ RATES_API_URL: "sometimes" })).toThrow(/RATES_API_URL/);
  });

  it("is held to https in production like every provider URL", () => {
    expect(() =>
      parseConfig({ APP_ENV: "production", RATES_API_URL: "http://rates.example/v1" }),
    ).toThrow(/RATES_API_URL: must be an https:\/\/ URL/);
  });
});

describe("refresh from the configured source", () => {
  it("fetches the latest day, and the rates API says it answers from it", async () => {
    await resetToSnapshot();
    expect((await rates()).body).toMatchObject({
      date: RATES_SNAPSHOT.date,
      source: "ECB (snapshot)",
      snapshot: true,
    });
    fake.publish("2026-11-20", { USD: "1.0512", CNY: "7.4613", JPY: "161.23" });
    const before = fake.requests.length;
    expect(await refreshExchangeRates(ctx.deps)).toEqual({
      status: "refreshed",
      date: "2026-11-20",
      source: "ECB",
      currencies: 3,
      written: 3,
    });
    expect(fake.requests.slice(before).map((u) => `${u.pathname}${u.search}`)).toEqual([
      "/latest?base=EUR",
    ]);
    const res = await rates();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      base: "EUR",
      date: "2026-11-20",
      source: "ECB",
      snapshot: false,
      rates: { CNY: "7.4613", JPY: "161.23", USD: "1.0512" },
      quotes: { CNY: { source: "ECB", date: "2026-11-20" } },
    });
    expect(Object.keys(res.body)).toContain("age_days");
  });

  it("runs as the daily scheduled task", async () => {
    fake.publish("2026-11-23", { USD: "1.0533", CNY: "7.4701", JPY: "161.5" });
    const [outcome] = await runScheduledTasks(ctx.deps, ["refreshRates"]);
    expect(outcome).toMatchObject({
      task: "refreshRates",
      ok: true,
      // Every source; the wide one is not configured here.
      result: {
        ecb: { status: "refreshed", date: "2026-11-23", written: 3 },
        wide: { status: "skipped", reason: "not_configured" },
      },
    });
    expect((await rates()).body).toMatchObject({ date: "2026-11-23", snapshot: false });
  });

  it("falls back to the shipped snapshot when the source is unreachable, and says so", async () => {
    await resetToSnapshot();
    const offline = await ctx.makeInstance({}, { RATES_API_URL: goneUrl });
    await expect(refreshExchangeRates(offline.deps)).rejects.toMatchObject({
      name: "RatesUnavailableError",
      reason: "network",
    });
    const [outcome] = await runScheduledTasks(offline.deps, ["refreshRates"]);
    expect(outcome).toMatchObject({ task: "refreshRates", ok: false });
    const res = await rates(offline.app);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      date: RATES_SNAPSHOT.date,
      source: "ECB (snapshot)",
      snapshot: true,
    });
    const conv = await call(offline.app, "/api/v1/exchange/convert?amount=1&from=EUR&to=USD", {
      token: user.accessToken,
    });
    expect(conv.body).toMatchObject({ date: RATES_SNAPSHOT.date, source: "ECB (snapshot)" });
  });

  it("falls back when the source answers with an error page", async () => {
    await resetToSnapshot();
    fake.fail("http-502");
    try {
      await expect(refreshExchangeRates(ctx.deps)).rejects.toBeInstanceOf(RatesUnavailableError);
    } finally {
      fake.fail(null);
    }
    expect((await rates()).body).toMatchObject({ source: "ECB (snapshot)", snapshot: true });
  });

  it("goes through the outbound policy: a loopback source not allowed is never called", async () => {
    await resetToSnapshot();
    const strict = await ctx.makeInstance(
      {},
      { RATES_API_URL: fake.url, OUTBOUND_ALLOW_HOSTS: "" },
    );
    const before = fake.requests.length;
    await expect(refreshExchangeRates(strict.deps)).rejects.toBeInstanceOf(RatesUnavailableError);
    expect(fake.requests.length).toBe(before);
    expect((await rates(strict.app)).body).toMatchObject({ snapshot: true });
  });

  it("skips when RATES_API_URL is off", async () => {
    const off = await ctx.makeInstance({}, { RATES_API_URL: "off" });
    const before = fake.requests.length;
    expect(await refreshExchangeRates(off.deps)).toEqual({
      status: "skipped",
      reason: "not_configured",
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe("npm run rates:snapshot", () => {
  const config = { APP_ENV: "test" as const, OUTBOUND_ALLOW_HOSTS: ["127.0.0.1"] };

  it("rewrites the snapshot file from the source", async () => {
    fake.publish("2026-11-24", { USD: "1.0540", CNY: "7.4700", ZAR: "19.1234" });
    const file = join(mkdtempSync(join(tmpdir(), "rates-")), "snapshot-data.ts");
    expect(await writeRatesSnapshot({ ...config, RATES_API_URL: fake.url }, file)).toEqual({
      date: "2026-11-24",
      currencies: 3,
    });
    const text = readFileSync(file, "utf8");
    expect(text).toBe(
      snapshotSource({ date: "2026-11-24", rates: { USD: "1.054", CNY: "7.47", ZAR: "19.1234" } }),
    );
    expect(text).toContain('date: "2026-11-24"');
    expect(text).toMatch(/CNY: "7\.47",\n {4}USD: "1\.054",\n {4}ZAR: "19\.1234",/);
  });

  it("keeps the committed file in the script's own format", () => {
    expect(readFileSync(SNAPSHOT_FILE, "utf8")).toBe(snapshotSource(SNAPSHOT_DATA));
  });

  it("writes nothing when the source is unreachable or not allowed", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "rates-")), "snapshot-data.ts");
    await expect(
      writeRatesSnapshot({ ...config, RATES_API_URL: goneUrl }, file),
    ).rejects.toBeInstanceOf(RatesUnavailableError);
    await expect(
      writeRatesSnapshot({ ...config, OUTBOUND_ALLOW_HOSTS: [], RATES_API_URL: fake.url }, file),
    ).rejects.toBeInstanceOf(RatesUnavailableError);
    expect(() => readFileSync(file)).toThrow();
  });
});
