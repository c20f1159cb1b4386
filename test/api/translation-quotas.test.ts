import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { releaseQuota, reserveQuota } from "../../src/modules/ai/quotas";
import type { Deps } from "../../src/ports";
import { addAiProvider, clearAiProviders } from "../support/ai";
import { createTestContext, onPostgres } from "../support/harness";

const ctx = await createTestContext();
const { deps } = ctx;

/** deps whose clock reads `date`. */
const at = (date: string): Deps => ({ ...deps, clock: { now: () => new Date(date) } });

let provider: string;

beforeEach(async () => {
  await clearAiProviders(deps);
  provider = await addAiProvider(deps, { name: "deepl", kind: "mt", baseUrl: "http://x" });
});

async function addQuota(
  period: "day" | "month",
  charLimit: number,
  options: { used?: number; start?: string; enabled?: boolean; providerId?: string } = {},
) {
  await queryRows(
    deps.db,
    sql`insert into translation_quotas (provider_id, period, char_limit, chars_used, period_start,
          enabled)
        values (${options.providerId ?? provider}, ${period}, ${charLimit}, ${options.used ?? 0},
          ${options.start ?? "2026-03-10T00:00:00Z"}::timestamptz, ${options.enabled ?? true})`,
  );
}

async function quotas(providerId = provider) {
  const rows = await queryRows<{ period: string; chars_used: number; period_start: Date | string }>(
    deps.db,
    sql`select period, chars_used, period_start from translation_quotas
        where provider_id = ${providerId} order by period`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.period,
      { used: r.chars_used, start: new Date(r.period_start).toISOString() },
    ]),
  );
}

describe("reserveQuota", () => {
  it("treats a provider without quota rows as unlimited", async () => {
    expect(await reserveQuota(at("2026-03-10T12:00:00Z"), provider, 1_000_000)).toBe(true);
    expect(await quotas()).toEqual({});
  });

  it("adds the characters while they fit and refuses the one that would overshoot", async () => {
    await addQuota("day", 10);
    const d = at("2026-03-10T12:00:00Z");
    expect(await reserveQuota(d, provider, 4)).toBe(true);
    expect(await reserveQuota(d, provider, 6)).toBe(true);
    expect(await reserveQuota(d, provider, 1)).toBe(false);
    expect((await quotas()).day!.used).toBe(10);
  });

  it("is all or nothing across the day and month rows", async () => {
    await addQuota("day", 100);
    await addQuota("month", 10, { start: "2026-03-01T00:00:00Z" });
    const d = at("2026-03-10T12:00:00Z");
    expect(await reserveQuota(d, provider, 8)).toBe(true);
    expect(await reserveQuota(d, provider, 5)).toBe(false);
    const rows = await quotas();
    expect(rows.day!.used).toBe(8);
    expect(rows.month!.used).toBe(8);
  });

  it("ignores disabled rows and other providers' rows", async () => {
    const other = await addAiProvider(deps, { name: "other", kind: "mt", baseUrl: "http://y" });
    await addQuota("day", 1, { enabled: false });
    await addQuota("day", 1, { providerId: other });
    expect(await reserveQuota(at("2026-03-10T12:00:00Z"), provider, 50)).toBe(true);
    expect((await quotas()).day!.used).toBe(0);
    expect((await quotas(other)).day!.used).toBe(0);
  });

  it("rolls a day over on the first use after it ended", async () => {
    await addQuota("day", 10, { used: 10, start: "2026-03-10T00:00:00Z" });
    expect(await reserveQuota(at("2026-03-10T23:59:59Z"), provider, 1)).toBe(false);
    expect(await reserveQuota(at("2026-03-12T08:30:00Z"), provider, 3)).toBe(true);
    expect((await quotas()).day).toEqual({ used: 3, start: "2026-03-12T00:00:00.000Z" });
  });

  it("rolls a month over at the start of the next UTC month", async () => {
    await addQuota("month", 100, { used: 95, start: "2026-01-01T00:00:00Z" });
    expect(await reserveQuota(at("2026-01-31T23:59:59Z"), provider, 10)).toBe(false);
    expect((await quotas()).month).toEqual({ used: 95, start: "2026-01-01T00:00:00.000Z" });
    expect(await reserveQuota(at("2026-02-01T00:00:00Z"), provider, 10)).toBe(true);
    expect((await quotas()).month).toEqual({ used: 10, start: "2026-02-01T00:00:00.000Z" });
  });

  it("rolls over an ended day even when the month row refuses", async () => {
    await addQuota("day", 100, { used: 100, start: "2026-03-09T00:00:00Z" });
    await addQuota("month", 100, { used: 95, start: "2026-03-01T00:00:00Z" });
    const d = at("2026-03-10T12:00:00Z");
    expect(await reserveQuota(d, provider, 10)).toBe(false);
    expect(await reserveQuota(d, provider, 5)).toBe(true);
    const rows = await quotas();
    expect(rows.day).toEqual({ used: 5, start: "2026-03-10T00:00:00.000Z" });
    expect(rows.month!.used).toBe(100);
  });

  it(`admits exactly floor(limit / chars) of many parallel reservations${onPostgres ? " (Postgres, concurrent)" : ""}`, async () => {
    await addQuota("day", 100);
    await addQuota("month", 1000, { start: "2026-03-01T00:00:00Z" });
    const d = at("2026-03-10T12:00:00Z");
    const results = await Promise.all(
      Array.from({ length: 40 }, () => reserveQuota(d, provider, 7)),
    );
    expect(results.filter(Boolean)).toHaveLength(14);
    const rows = await quotas();
    expect(rows.day!.used).toBe(98);
    expect(rows.month!.used).toBe(98);
  });
});

describe("releaseQuota", () => {
  it("gives reserved characters back within the same period", async () => {
    await addQuota("day", 10);
    await addQuota("month", 100, { start: "2026-03-01T00:00:00Z" });
    const when = "2026-03-10T12:00:00.000Z";
    expect(await reserveQuota(at(when), provider, 10)).toBe(true);
    await releaseQuota(at(when), provider, 10, when);
    const rows = await quotas();
    expect(rows.day!.used).toBe(0);
    expect(rows.month!.used).toBe(0);
    expect(await reserveQuota(at(when), provider, 10)).toBe(true);
  });

  it("never goes below zero", async () => {
    await addQuota("day", 10, { used: 2 });
    const when = "2026-03-10T12:00:00.000Z";
    await releaseQuota(at(when), provider, 5, when);
    expect((await quotas()).day!.used).toBe(0);
  });

  it("gives nothing back to a period that started after the reservation", async () => {
    await addQuota("day", 10, { start: "2026-03-10T00:00:00Z" });
    const reservedAt = "2026-03-10T23:59:59.000Z";
    expect(await reserveQuota(at(reservedAt), provider, 4)).toBe(true);
    // The next day's first reservation rolls the row over before the release arrives.
    expect(await reserveQuota(at("2026-03-11T00:00:01Z"), provider, 6)).toBe(true);
    await releaseQuota(at("2026-03-11T00:00:02Z"), provider, 4, reservedAt);
    expect((await quotas()).day).toEqual({ used: 6, start: "2026-03-11T00:00:00.000Z" });
  });
});
