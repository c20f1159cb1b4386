import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { CustomerStatus } from "../../db/schema";
import type { Deps } from "../../deps";
import { notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { HealthLevel } from "./schemas";
import { SILENCE_DAYS_SQL } from "./service";

/**
 * Customer health, computed in SQL for a whole page (or the overview) in one query. The formula
 * is in docs/customers.md; the constants here are its single source.
 */
const HEALTH_WEIGHTS = { recency: 40, punctuality: 25, status: 25, value: 10 } as const;

const STATUS_HEALTH: Record<CustomerStatus, number> = {
  new: 0.5,
  contacted: 0.6,
  negotiating: 0.8,
  quoted: 0.9,
  won: 1,
  lost: 0,
  dormant: 0.2,
};

/** Punctuality with nothing scheduled; and the days overdue at which it reaches 0. */
const UNSCHEDULED_PUNCTUALITY = 0.5;
const OVERDUE_ZERO_DAYS = 7;

/** Lower bounds of each level (score >= bound), best first. */
const LEVEL_BOUNDS: [HealthLevel, number][] = [
  ["healthy", 70],
  ["watch", 50],
  ["at_risk", 30],
  ["critical", 0],
];

const num = (n: number) => sql.raw(String(n));

/**
 * Every customer of `userId` with its factor values, score and level (one row each). The value
 * factor is the customer's cumulative rank among the user's customers with a positive estimate
 * in the same currency, so the window must see all of the user's customers: filter outside.
 */
function healthRows(userId: string, now: string): SQL {
  const at = sql`${now}::timestamptz`;
  const statusCase = sql.join(
    Object.entries(STATUS_HEALTH).map(([s, v]) => sql`when ${s} then ${num(v)}`),
    sql` `,
  );
  const w = HEALTH_WEIGHTS;
  const levelCase = sql.join(
    LEVEL_BOUNDS.map(([level, bound]) => sql`when score >= ${num(bound)} then ${level}`),
    sql` `,
  );
  return sql`
    select scored.*, case ${levelCase} end as level
    from (
      select f.*,
        round((${num(w.recency)} * f.f_recency + ${num(w.punctuality)} * f.f_punctuality
              + ${num(w.status)} * f.f_status + ${num(w.value)} * f.f_value)::numeric)::int
          as score
      from (
        select b.*,
          case when b.days_since <= b.silence_days / 2.0 then 1.0
               when b.days_since >= b.silence_days * 2.0 then 0.0
               else (b.silence_days * 2.0 - b.days_since) / (b.silence_days * 1.5) end
            ::float8 as f_recency,
          case when b.next_followup_at is null then ${num(UNSCHEDULED_PUNCTUALITY)}
               else greatest(0.0, 1.0 - b.overdue_days / ${num(OVERDUE_ZERO_DAYS)}) end
            ::float8 as f_punctuality,
          (case b.status ${statusCase} else 0 end)::float8 as f_status
        from (
          select c.id, c.user_id, c.company, c.contact_name, c.status, c.estimated_value,
            c.estimated_currency, c.last_contact_at, c.next_followup_at, c.created_at,
            cfg.days as silence_days,
            greatest(0, extract(epoch from (${at} - coalesce(c.last_contact_at, c.created_at)))
              / 86400.0)::float8 as days_since,
            greatest(0, extract(epoch from (${at} - c.next_followup_at)) / 86400.0)::float8
              as overdue_days,
            (case when c.estimated_value > 0
                  then cume_dist() over (partition by c.estimated_currency, c.estimated_value > 0
                                         order by c.estimated_value)
                  else 0 end)::float8 as f_value,
            (case when c.estimated_value > 0
                  then count(*) over (partition by c.estimated_currency, c.estimated_value > 0)
                  else 0 end)::int as value_peers
          from customers c, (select ${SILENCE_DAYS_SQL} as days) cfg
          where c.user_id = ${userId}
        ) b
      ) f
    ) scored`;
}

export interface HealthRow {
  id: string;
  company: string | null;
  contact_name: string | null;
  status: CustomerStatus;
  estimated_value: number | null;
  estimated_currency: string;
  last_contact_at: Date | string | null;
  next_followup_at: Date | string | null;
  silence_days: number;
  days_since: number;
  overdue_days: number | null;
  value_peers: number;
  f_recency: number;
  f_punctuality: number;
  f_status: number;
  f_value: number;
  score: number;
  level: HealthLevel;
}

const round3 = (n: number) => Math.round(Number(n) * 1000) / 1000;
const days = (n: number) => Math.floor(Number(n));

function healthFactors(r: HealthRow) {
  const since = days(r.days_since);
  const contact = r.last_contact_at
    ? `Last contact ${since} day(s) ago`
    : `Never contacted; added ${since} day(s) ago`;
  const overdue = r.overdue_days === null ? 0 : Number(r.overdue_days);
  return [
    {
      name: "recency" as const,
      weight: HEALTH_WEIGHTS.recency,
      value: round3(r.f_recency),
      note: `${contact} (full marks up to ${r.silence_days / 2}, none from ${r.silence_days * 2})`,
    },
    {
      name: "punctuality" as const,
      weight: HEALTH_WEIGHTS.punctuality,
      value: round3(r.f_punctuality),
      note:
        r.next_followup_at === null
          ? "No follow-up scheduled"
          : overdue > 0
            ? `Follow-up overdue by ${days(overdue)} day(s) (none at ${OVERDUE_ZERO_DAYS})`
            : "Next follow-up is on schedule",
    },
    {
      name: "status" as const,
      weight: HEALTH_WEIGHTS.status,
      value: round3(r.f_status),
      note: `Status ${r.status}`,
    },
    {
      name: "value" as const,
      weight: HEALTH_WEIGHTS.value,
      value: round3(r.f_value),
      note:
        r.estimated_value && r.estimated_value > 0
          ? `Estimated ${r.estimated_value} ${r.estimated_currency} (minor units), ranked among ${r.value_peers} valued customer(s) in ${r.estimated_currency}`
          : "No estimated value",
    },
  ];
}

const scoreOut = (r: HealthRow) => ({
  customer_id: r.id,
  company: r.company,
  contact_name: r.contact_name,
  status: r.status,
  score: Number(r.score),
  level: r.level,
  last_contact_at: iso(r.last_contact_at),
  next_followup_at: iso(r.next_followup_at),
});

export async function customerHealth(deps: Deps, userId: string, customerId: string) {
  const [row] = await queryRows<HealthRow>(
    deps.db,
    sql`select * from (${healthRows(userId, deps.clock.now().toISOString())}) h
        where h.id = ${customerId}`,
  );
  if (!row) throw notFound("Customer not found");
  return {
    customer_id: row.id,
    score: Number(row.score),
    level: row.level,
    factors: healthFactors(row),
  };
}

export async function listHealthScores(
  deps: Deps,
  userId: string,
  query: { page: number; size: number; sort: "score" | "-score"; level?: HealthLevel },
) {
  const dir = query.sort === "-score" ? sql.raw("desc") : sql.raw("asc");
  const where = query.level ? sql`where h.level = ${query.level}` : sql``;
  const rows = await queryRows<HealthRow & { total_count: number | string }>(
    deps.db,
    sql`select h.*, count(*) over () as total_count
        from (${healthRows(userId, deps.clock.now().toISOString())}) h ${where}
        order by h.score ${dir}, h.id ${dir}
        limit ${query.size} offset ${(query.page - 1) * query.size}`,
  );
  let total = rows.length > 0 ? Number(rows[0]!.total_count) : 0;
  if (rows.length === 0 && query.page > 1) {
    const [count] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from (${healthRows(userId, deps.clock.now().toISOString())}) h
          ${where}`,
    );
    total = count?.n ?? 0;
  }
  return { items: rows.map(scoreOut), total, page: query.page, size: query.size };
}

/** Counts per level, the average and the 5 lowest scores among customers not lost: one query. */
export async function healthOverview(deps: Deps, userId: string) {
  const [row] = await queryRows<{
    total: number;
    average: number | string | null;
    counts: Record<string, number> | string | null;
    worst: HealthRow[] | string | null;
  }>(
    deps.db,
    sql`with h as materialized (${healthRows(userId, deps.clock.now().toISOString())})
        select (select count(*)::int from h) as total,
          (select round(avg(score)::numeric, 1)::float8 from h) as average,
          (select json_object_agg(level, n) from
             (select level, count(*)::int as n from h group by level) x) as counts,
          (select json_agg(w order by w.score, w.id) from
             (select * from h where status <> 'lost' order by score, id limit 5) w) as worst`,
  );
  const parse = <T>(v: T | string | null): T | null =>
    typeof v === "string" ? (JSON.parse(v) as T) : v;
  const counts = parse(row?.counts ?? null) ?? {};
  const worst = parse(row?.worst ?? null) ?? [];
  return {
    total: row?.total ?? 0,
    average: row?.average === null || row?.average === undefined ? null : Number(row.average),
    counts: {
      healthy: counts.healthy ?? 0,
      watch: counts.watch ?? 0,
      at_risk: counts.at_risk ?? 0,
      critical: counts.critical ?? 0,
    },
    most_at_risk: worst.map(scoreOut),
  };
}
