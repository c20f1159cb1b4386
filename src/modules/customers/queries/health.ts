import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../../../db/client";
import { type CustomerStatus, customers, users } from "../../../db/schema";
import { columnList, type DbRow } from "../../../db/sql";
import { readableBy, SILENCE_DAYS_SQL } from "./index";

/** The health formula's constants (docs/customers.md); their single source is ../health.ts. */
export interface HealthModel {
  weights: { recency: number; punctuality: number; status: number; value: number };
  statusHealth: Record<CustomerStatus, number>;
  /** Punctuality with nothing scheduled; and the days overdue at which it reaches 0. */
  unscheduledPunctuality: number;
  overdueZeroDays: number;
  /** Lower bounds of each level (score >= bound), best first. */
  levelBounds: [string, number][];
}

export type HealthRow<Level extends string = string> = Pick<
  DbRow<typeof customers>,
  | "id"
  | "user_id"
  | "company"
  | "contact_name"
  | "status"
  | "estimated_value"
  | "estimated_currency"
  | "last_contact_at"
  | "next_followup_at"
> & {
  /** The holder's name (null in the pool); on listed rows only. */
  owner_name?: string | null;
  silence_days: number;
  days_since: number;
  overdue_days: number | null;
  value_peers: number;
  f_recency: number;
  f_punctuality: number;
  f_status: number;
  f_value: number;
  score: number;
  level: Level;
};

const num = (n: number) => sql.raw(String(n));

/** The level of a `score` column: `when score >= bound then level ...`, best first. */
const levelCaseOf = (model: HealthModel): SQL =>
  sql.join(
    model.levelBounds.map(([level, bound]) => sql`when score >= ${num(bound)} then ${level}`),
    sql` `,
  );

/**
 * Every customer `userId` sees (src/db/scope.ts) with its factor values, score and level (one row
 * each). The value factor is the customer's cumulative rank among those customers with a positive
 * estimate in the same currency, so the window must see all of them: filter outside.
 * The window partitions by the currency's bytes (collate "C": the same groups, a cheaper sort);
 * epochs are date_part's float8, not extract's numeric, and the recency bounds are float8
 * computed once (numeric arithmetic per row was a fifth of the statement). Each layer ends in `offset 0` so the planner keeps it a subquery: pulled up, every use of a
 * column (the level's `case` reads the score four times, the score reads each factor) would
 * repeat the whole expression below it, per row.
 */
function healthRows(model: HealthModel, userId: string, now: string): SQL {
  const c = alias(customers, "c");
  const at = sql`${now}::timestamptz`;
  const statusCase = sql.join(
    Object.entries(model.statusHealth).map(([s, v]) => sql`when ${s} then ${num(v)}`),
    sql` `,
  );
  const w = model.weights;
  const levelCase = levelCaseOf(model);
  return sql`
    select scored.*, case ${levelCase} end as level
    from (
      select f.*,
        round((${num(w.recency)} * f.f_recency + ${num(w.punctuality)} * f.f_punctuality
              + ${num(w.status)} * f.f_status + ${num(w.value)} * f.f_value)::numeric)::int
          as score
      from (
        select b.*,
          case when b.days_since <= b.full_until then 1.0
               when b.days_since >= b.none_from then 0.0
               else (b.none_from - b.days_since) / b.fade_span end
            ::float8 as f_recency,
          case when b.next_followup_at is null then ${num(model.unscheduledPunctuality)}
               else greatest(0.0, 1.0 - b.overdue_days / ${num(model.overdueZeroDays)}) end
            ::float8 as f_punctuality,
          (case b.status ${statusCase} else 0 end)::float8 as f_status
        from (
          select ${columnList([c.id, c.userId, c.company, c.contactName, c.status, c.estimatedValue, c.estimatedCurrency, c.lastContactAt, c.nextFollowupAt, c.createdAt])},
            cfg.days as silence_days, cfg.full_until, cfg.none_from, cfg.fade_span,
            greatest(0, date_part('epoch', ${at} - coalesce(${c.lastContactAt}, ${c.createdAt}))
              / 86400.0)::float8 as days_since,
            greatest(0, date_part('epoch', ${at} - ${c.nextFollowupAt}) / 86400.0)::float8
              as overdue_days,
            (case when ${c.estimatedValue} > 0
                  then cume_dist() over (partition by ${c.estimatedCurrency} collate "C", ${c.estimatedValue} > 0
                                         order by ${c.estimatedValue})
                  else 0 end)::float8 as f_value,
            (case when ${c.estimatedValue} > 0
                  then count(*) over (partition by ${c.estimatedCurrency} collate "C", ${c.estimatedValue} > 0)
                  else 0 end)::int as value_peers
          from ${customers} ${c}, (
            select days, days / 2.0::float8 as full_until, days * 2.0::float8 as none_from,
              days * 1.5::float8 as fade_span
            from (select ${SILENCE_DAYS_SQL} as days) d) cfg
          where ${readableBy(c, userId)} offset 0
        ) b offset 0
      ) f offset 0
    ) scored`;
}

/** One customer's health row; undefined when the user does not see it. */
export async function getCustomerHealth<Level extends string>(
  db: Db,
  model: HealthModel,
  params: { userId: string; customerId: string; now: string },
): Promise<HealthRow<Level> | undefined> {
  const [row] = await queryRows<HealthRow<Level>>(
    db,
    sql`select * from (${healthRows(model, params.userId, params.now)}) h
        where h.id = ${params.customerId}`,
  );
  return row;
}

/**
 * A page of the health rows of the customers the user sees, by score, optionally of one level;
 * one statement. The holder's name is read for the page's rows only, after the limit.
 */
export async function listHealthRows<Level extends string>(
  db: Db,
  model: HealthModel,
  params: {
    userId: string;
    now: string;
    page: number;
    size: number;
    desc: boolean;
    level?: Level | undefined;
  },
) {
  const dir = params.desc ? sql.raw("desc") : sql.raw("asc");
  const where = params.level ? sql`where h.level = ${params.level}` : sql``;
  const u = alias(users, "u");
  const rows = await queryRows<HealthRow<Level> & { total_count: number | string }>(
    db,
    sql`select pg.*, (select ${u.name} from ${users} ${u} where ${u.id} = pg.user_id) as owner_name
        from (select h.*, count(*) over () as total_count
              from (${healthRows(model, params.userId, params.now)}) h ${where}
              order by h.score ${dir}, h.id ${dir}
              limit ${params.size} offset ${(params.page - 1) * params.size}) pg
        order by pg.score ${dir}, pg.id ${dir}`,
  );
  let total = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && params.page > 1) {
    const [count] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (${healthRows(model, params.userId, params.now)}) h
          ${where}`,
    );
    total = count?.n ?? 0;
  }
  return { rows, total };
}

/**
 * Counts per level, the average and the 5 lowest scores among customers not lost: one query.
 * One pass over the scored rows keeps only aggregates, the ids of the 5 lowest by (score, id)
 * and the 5 lowest scores (the same scores in the same order; their levels follow from them);
 * the names of those 5 are read by id afterwards. Materialising every scored row to read it four
 * times cost ~8 ms per 1,000 customers (a wide tuplestore spilled to disk past ~30,000).
 */
export async function healthSummary<Level extends string>(
  db: Db,
  model: HealthModel,
  params: { userId: string; now: string },
) {
  const c = alias(customers, "c");
  const u = alias(users, "u");
  const levelCase = levelCaseOf(model);
  const counts = sql.join(
    model.levelBounds.map(
      ([level]) => sql`${level}::text, count(*) filter (where h.level = ${level})`,
    ),
    sql`, `,
  );
  const [row] = await queryRows<{
    total: number;
    average: number | string | null;
    counts: Record<string, number> | string | null;
    worst: HealthRow<Level>[] | string | null;
  }>(
    db,
    sql`with agg as (
          select count(*)::int as total, round(avg(h.score)::numeric, 1)::float8 as average,
            case when count(*) > 0 then json_build_object(${counts}) end as counts,
            (array_agg(h.id order by h.score, h.id) filter (where h.status <> 'lost'))[1:5]
              as worst_ids,
            (array_agg(h.score order by h.score) filter (where h.status <> 'lost'))[1:5]
              as worst_scores
          from (${healthRows(model, params.userId, params.now)}) h)
        select agg.total, agg.average, agg.counts,
          (select json_agg(json_build_object('id', ${c.id}, 'user_id', ${c.userId},
                  'owner_name', (select ${u.name} from ${users} ${u} where ${u.id} = ${c.userId}),
                  'company', ${c.company},
                  'contact_name', ${c.contactName}, 'status', ${c.status}, 'score', w.score,
                  'level', w.level, 'last_contact_at', ${c.lastContactAt},
                  'next_followup_at', ${c.nextFollowupAt}) order by w.n)
             from (select u.*, case ${levelCase} end as level
                   from unnest(agg.worst_ids, agg.worst_scores) with ordinality as u(id, score, n)) w
             join ${customers} ${c} on ${c.id} = w.id) as worst
        from agg`,
  );
  return row;
}
