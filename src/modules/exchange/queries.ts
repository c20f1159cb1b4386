import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../db/client";
import { exchangeRates } from "../../db/schema";
import { col, columnNames, type DbRow } from "../../db/sql";

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

/**
 * The EUR rates the service answers with: the newest date; on one date a provider's own rows
 * win over the shipped snapshot (`snapshotSource`). `eur` has one row per currency, EUR itself
 * included as 1.
 */
const eurRatesCte = (snapshotSource: string) => sql`pick as (
    select ${xr.date}, ${xr.source} from ${xr} where ${xr.base} = 'EUR'
    order by ${xr.date} desc, (${xr.source} = ${snapshotSource}) asc, ${xr.source} asc limit 1),
  eur as (
    select ${r.quote}, ${r.rate} from ${xr} ${r} join pick p
      on ${r.base} = 'EUR' and ${r.date} = p.date and ${r.source} = p.source
    union all select 'EUR', 1::numeric from pick)`;

/**
 * Every currency's rate against `base` on the newest date, exact to `digits` significant
 * digits, one row per quote (ordered); a single row with a null quote when `base` is unknown,
 * none when no rates are loaded.
 */
export function crossRates(
  db: Db,
  params: { base: string; snapshotSource: string; digits: number },
) {
  const { base } = params;
  return queryRows<
    Pick<DbRow<typeof exchangeRates>, "date" | "source"> & {
      quote: DbRow<typeof exchangeRates>["quote"] | null;
      rate: string | null;
    }
  >(
    db,
    sql`with ${eurRatesCte(params.snapshotSource)},
      b as (select rate from eur where quote = ${base})
      select p.date::text as date, p.source, q.quote, q.rate
      from pick p left join (
        select e.quote, ${crossRateSql(sql`e.rate`, sql`b.rate`, params.digits)}::text as rate
        from eur e cross join b where e.quote <> ${base}) q on true
      order by q.quote`,
  );
}

/**
 * `amount` of `from` in `to` on the newest date: the cross rate to `digits` significant digits
 * and the result rounded half-even to `decimals`; undefined when no rates are loaded.
 */
export async function convertAmount(
  db: Db,
  params: {
    amount: string;
    from: string;
    to: string;
    decimals: number;
    snapshotSource: string;
    digits: number;
  },
) {
  const { amount, decimals } = params;
  const [row] = await queryRows<
    Pick<DbRow<typeof exchangeRates>, "date" | "source"> & {
      from_known: boolean;
      to_known: boolean;
      rate: string | null;
      result: string | null;
    }
  >(
    db,
    sql`with ${eurRatesCte(params.snapshotSource)},
      f as (select rate from eur where quote = ${params.from}),
      t as (select rate from eur where quote = ${params.to}),
      x as (select ${crossRateSql(sql`t.rate`, sql`f.rate`, params.digits)} as rate from f cross join t)
      select p.date::text as date, p.source,
        exists (select 1 from f) as from_known, exists (select 1 from t) as to_known,
        x.rate::text as rate,
        round(${halfEvenSql(sql`${amount}::numeric * x.rate`, sql`1`, sql.raw(String(decimals)))},
          ${sql.raw(String(decimals))})::text as result
      from pick p left join x on true`,
  );
  return row;
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
