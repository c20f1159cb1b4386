import type { CustomerStatus } from "../../db/schema";
import { notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import type { Deps } from "../../ports";
import {
  getCustomerHealth,
  type HealthModel,
  type HealthRow as HealthRowOf,
  healthSummary,
  listHealthRows,
} from "./queries/health";
import type { HealthLevel } from "./schemas";

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

const MODEL: HealthModel = {
  weights: HEALTH_WEIGHTS,
  statusHealth: STATUS_HEALTH,
  unscheduledPunctuality: UNSCHEDULED_PUNCTUALITY,
  overdueZeroDays: OVERDUE_ZERO_DAYS,
  levelBounds: LEVEL_BOUNDS,
};

type HealthRow = HealthRowOf<HealthLevel>;

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
  user_id: r.user_id,
  owner_name: r.owner_name ?? null,
  company: r.company,
  contact_name: r.contact_name,
  status: r.status,
  score: Number(r.score),
  level: r.level,
  last_contact_at: iso(r.last_contact_at),
  next_followup_at: iso(r.next_followup_at),
});

export async function customerHealth(deps: Deps, userId: string, customerId: string) {
  const row = await getCustomerHealth<HealthLevel>(deps.db, MODEL, {
    userId,
    customerId,
    now: deps.clock.now().toISOString(),
  });
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
  const { rows, total } = await listHealthRows<HealthLevel>(deps.db, MODEL, {
    userId,
    now: deps.clock.now().toISOString(),
    page: query.page,
    size: query.size,
    desc: query.sort === "-score",
    level: query.level,
  });
  return { items: rows.map(scoreOut), total, page: query.page, size: query.size };
}

/** Counts per level, the average and the 5 lowest scores among customers not lost: one query. */
export async function healthOverview(deps: Deps, userId: string) {
  const row = await healthSummary<HealthLevel>(deps.db, MODEL, {
    userId,
    now: deps.clock.now().toISOString(),
  });
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
