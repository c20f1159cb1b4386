import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { exchangeRates } from "../../db/schema";
import { col, columnNames, type DbRow } from "../../db/sql";
import { type Actor, auditCte } from "../admin/queries/audit";

const xr = exchangeRates;
const r = alias(exchangeRates, "r");

/**
 * n / d (both > 0) rounded half-even to `s` decimals (s may be negative), exactly: with
 * m = n·10^s, k = trunc(m / d) and the remainder r = m - k·d, k moves up when 2r > d, or when
 * 2r = d and k is odd. `10^s` is written `'1e<s>'::numeric`, which numeric parses exactly.
 */
function halfEvenSql(n: SQL, d: SQL, s: SQL): SQL {
  // Aliases are prefixed so they never shadow a column reference inside n, d or s.
  return sql`(select (hev_h.k + case when 2 * (hev_h.m - hev_h.k * hev_h.d) > hev_h.d
        or (2 * (hev_h.m - hev_h.k * hev_h.d) = hev_h.d and mod(hev_h.k, 2) = 1) then 1 else 0 end)
      * ('1e' || (-hev_h.s))::numeric
    from (select hev_g.m, hev_g.d, hev_g.s, div(hev_g.m, hev_g.d) as k
      from (select (${n}) * ('1e' || hev_s.s)::numeric as m, (${d})::numeric as d, hev_s.s
        from (select (${s})::int as s) hev_s) hev_g) hev_h)`;
}

/** n / d rounded half-even to `digits` significant digits, trailing zeros trimmed. */
function crossRateSql(n: SQL, d: SQL, digits: number): SQL {
  const scale = sql`(${sql.raw(String(digits - 1))} - floor(log(${n} / ${d})))`;
  return sql`trim_scale(${halfEvenSql(n, d, scale)})`;
}

/** Which stored set a row belongs to: the ECB's (refreshed or shipped), the wide source's, a manual rate. */
export type RateSetName = "ecb" | "wide" | "manual";

export interface StoredRateRow {
  set: RateSetName;
  base: string;
  quote: string;
  rate: string;
  date: string;
  source: string;
}

/**
 * Every rate the service may answer with, in one read: the ECB set of the newest day (on one
 * day a refreshed set wins over the shipped snapshot), the wide source's newest day, and each
 * currency's manual rate (the last one set, should two PUTs have raced).
 */
export function storedRateSets(
  db: Db,
  params: { ecbSource: string; snapshotSource: string; wideSource: string; manualSource: string },
) {
  const { ecbSource, snapshotSource, wideSource, manualSource } = params;
  const day = (set: RateSetName, where: SQL, order: SQL) => sql`select ${set}::text as set,
      ${r.base}, ${r.quote}, trim_scale(${r.rate})::text as rate, ${r.date}::text as date, ${r.source}
    from ${xr} ${r} join (select ${xr.date}, ${xr.source} from ${xr}
      where ${xr.base} = 'EUR' and ${where} order by ${xr.date} desc, ${order} limit 1) p
    on ${r.base} = 'EUR' and ${r.date} = p.date and ${r.source} = p.source`;
  return queryRows<StoredRateRow>(
    db,
    sql`${day("ecb", sql`${xr.source} in (${ecbSource}, ${snapshotSource})`, sql`(${xr.source} = ${snapshotSource}) asc`)}
      union all ${day("wide", sql`${xr.source} = ${wideSource}`, sql`${xr.source}`)}
      union all select * from (select distinct on (${xr.quote}) 'manual'::text as set, ${xr.base},
          ${xr.quote}, trim_scale(${xr.rate})::text as rate, ${xr.date}::text as date, ${xr.source}
        from ${xr} where ${xr.source} = ${manualSource}
        order by ${xr.quote}, ${xr.fetchedAt} desc, ${xr.date} desc) m`,
  );
}

/**
 * One cross rate's inputs: rate = (nf... x ne) / (df... x de), each a positive decimal string.
 * (`nf`/`df` the manual factors a side follows to its anchor, none when it has no manual rate;
 * `e` a set's EUR rate, "1" when absent.)
 */
export interface RateTerms {
  quote: string;
  nf: readonly string[];
  ne: string;
  df: readonly string[];
  de: string;
}

const product = (factors: readonly string[], last: string) =>
  sql.join(
    [...factors, last].map((f) => sql`${f}::numeric`),
    sql` * `,
  );

const termsSql = (t: RateTerms) => ({
  n: sql`(${product(t.nf, t.ne)})`,
  d: sql`(${product(t.df, t.de)})`,
});

/** Each quote's cross rate, exact to `digits` significant digits, in one statement. */
export function crossRatesOf(db: Db, params: { terms: RateTerms[]; digits: number }) {
  if (params.terms.length === 0) return Promise.resolve([]);
  const values = sql.join(
    params.terms.map((t) => {
      const { n, d } = termsSql(t);
      return sql`(${t.quote}::text, ${n}, ${d})`;
    }),
    sql`, `,
  );
  return queryRows<{ quote: string; rate: string }>(
    db,
    sql`select v.quote, ${crossRateSql(sql`v.n`, sql`v.d`, params.digits)}::text as rate
      from (values ${values}) v(quote, n, d) order by v.quote`,
  );
}

/**
 * `amount` at the cross rate of `terms` (to `digits` significant digits), the result rounded
 * half-even to `decimals`.
 */
export async function convertAmount(
  db: Db,
  params: { amount: string; terms: RateTerms; decimals: number; digits: number },
) {
  const { amount, decimals } = params;
  const { n, d } = termsSql(params.terms);
  const [row] = await queryRows<{ rate: string; result: string }>(
    db,
    sql`select x.rate::text as rate,
        round(${halfEvenSql(sql`${amount}::numeric * x.rate`, sql`1`, sql.raw(String(decimals)))},
          ${sql.raw(String(decimals))})::text as result
      from (select ${crossRateSql(n, d, params.digits)} as rate) x`,
  );
  return row!;
}

/** The newest day stored under `source` (EUR-based), or null. */
export async function newestDay(db: Db, params: { source: string }) {
  const [row] = await queryRows<{ date: string | null }>(
    db,
    sql`select max(${xr.date})::text as date from ${xr}
      where ${xr.base} = 'EUR' and ${xr.source} = ${params.source}`,
  );
  return row?.date ?? null;
}

/**
 * Multi-row upsert of one day's EUR rates (`rates`: [quote, rate] pairs, validated by the
 * caller); returns the rows written or changed.
 */
export function upsertEurRates(
  db: Db,
  params: { date: string; source: string; rates: [string, string][]; now: string },
) {
  const values = sql.join(
    params.rates.map(
      ([quote, rate]) =>
        sql`('EUR', ${quote}, ${params.date}::date, ${params.source}, ${rate}::numeric, ${params.now}::timestamptz)`,
    ),
    sql`, `,
  );
  const cols = [xr.base, xr.quote, xr.date, xr.source, xr.rate, xr.fetchedAt];
  return queryRows<Pick<DbRow<typeof exchangeRates>, "quote">>(
    db,
    sql`insert into ${xr} (${columnNames(cols)})
      select * from (values ${values}) v(${columnNames(cols)})
      on conflict (${columnNames([xr.base, xr.quote, xr.date, xr.source])}) do update
        set ${col(xr.rate)} = excluded.rate, ${col(xr.fetchedAt)} = excluded.fetched_at
        where ${xr.rate} <> excluded.rate
      returning ${xr.quote}`,
  );
}

export interface ManualRateRow {
  currency: string;
  base: string;
  rate: string;
  date: string;
  updated_at: string;
}

const manualSide = (row: string) =>
  sql.raw(`case when ${row} is null then null else jsonb_build_object('base', ${row}.base,
    'rate', ${row}.rate, 'date', ${row}.date) end`);

/**
 * Sets `currency`'s manual rate (1 `base` = `rate` units of it, dated `date`), replacing any
 * other, with its audit row (the rate before and after) in the same statement.
 */
export async function putManualRate(
  db: Db,
  params: {
    actor: Actor;
    currency: string;
    base: string;
    rate: string;
    date: string;
    now: string;
    source: string;
  },
) {
  const { actor, currency, base, rate, date, now, source } = params;
  const cols = [xr.base, xr.quote, xr.date, xr.source, xr.rate, xr.fetchedAt];
  const [row] = await queryRows<ManualRateRow>(
    db,
    sql`with old as (
        select ${xr.base} as base, trim_scale(${xr.rate})::text as rate, ${xr.date}::text as date from ${xr}
        where ${xr.source} = ${source} and ${xr.quote} = ${currency}
        order by ${xr.fetchedAt} desc, ${xr.date} desc limit 1),
      gone as (
        delete from ${xr} where ${xr.source} = ${source} and ${xr.quote} = ${currency}
          and (${xr.base}, ${xr.date}) <> (${base}::text, ${date}::date)),
      w as (
        insert into ${xr} (${columnNames(cols)})
        values (${base}, ${currency}, ${date}::date, ${source}, ${rate}::numeric, ${now}::timestamptz)
        on conflict (${columnNames([xr.base, xr.quote, xr.date, xr.source])}) do update
          set ${col(xr.rate)} = excluded.rate, ${col(xr.fetchedAt)} = excluded.fetched_at
        returning ${xr.quote} as currency, ${xr.base} as base, trim_scale(${xr.rate})::text as rate,
          ${xr.date}::text as date, ${xr.fetchedAt} as updated_at),
      ${auditCte(actor, {
        action: "exchange_rate.put",
        target: "exchange_rate",
        rows: sql`(select w.currency as id, (select to_jsonb(o) from old o) as before_row,
          jsonb_build_object('base', w.base, 'rate', w.rate, 'date', w.date) as after_row from w)`,
        kind: "custom",
        before: sql`r.before_row`,
        after: sql`r.after_row`,
        fields: ["base", "rate", "date"],
        at: sql`${now}::timestamptz`,
      })}
      select currency, base, rate, date, updated_at from w`,
  );
  return row!;
}

/** Removes `currency`'s manual rate with its audit row; undefined when it had none. */
export async function deleteManualRate(
  db: Db,
  params: { actor: Actor; currency: string; now: string; source: string },
) {
  const { actor, currency, now, source } = params;
  const [row] = await queryRows<{ currency: string }>(
    db,
    sql`with d as (
        delete from ${xr} where ${xr.source} = ${source} and ${xr.quote} = ${currency}
        returning ${xr.quote} as currency, ${xr.base} as base, trim_scale(${xr.rate})::text as rate,
          ${xr.date}::text as date, ${xr.fetchedAt} as fetched_at),
      last as (select * from d order by fetched_at desc, date desc limit 1),
      ${auditCte(actor, {
        action: "exchange_rate.delete",
        target: "exchange_rate",
        rows: sql`(select l.currency as id, ${manualSide("l")} as before_row from last l)`,
        kind: "custom",
        before: sql`r.before_row`,
        after: sql`null::jsonb`,
        fields: ["base", "rate", "date"],
        at: sql`${now}::timestamptz`,
      })}
      select currency from last`,
  );
  return row;
}

/** The audit row of an admin's refresh: what each source did. */
export async function auditRefresh(
  db: Db,
  params: { actor: Actor; outcome: Record<string, unknown>; now: string },
) {
  await queryRows(
    db,
    sql`with ${auditCte(params.actor, {
      action: "exchange_rates.refresh",
      target: "exchange_rates",
      rows: sql`(select 'all'::text as id, ${JSON.stringify(params.outcome)}::jsonb as outcome)`,
      kind: "custom",
      after: sql`r.outcome`,
      fields: Object.keys(params.outcome),
      at: sql`${params.now}::timestamptz`,
    })} select 1 as done`,
  );
}
