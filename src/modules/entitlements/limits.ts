import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";

/**
 * Plan quotas (subscription_plans.limits; a missing key is unlimited). The database holds them:
 * AFTER INSERT triggers on `customers` and `agent_pipelines` (migration 0013) raise SQLSTATE
 * PL001 with DETAIL `{"limit", "max"}` when a statement takes a user past one, so every writer
 * (API, import, agent, assistant) is held to it atomically. This file turns that error into the
 * 403 the API answers; it imports nothing from src/http so that handleError can use it.
 */
const PLAN_LIMITS = ["customers", "agent_runs_per_month"] as const;
export type PlanLimitName = (typeof PLAN_LIMITS)[number];

const PLAN_LIMIT_SQLSTATE = "PL001";

export interface PlanLimitHit {
  limit: string;
  max: number;
}

/** The limit a driver error reports (SQLSTATE PL001), walking wrapped causes; else undefined. */
export function planLimitHit(error: unknown): PlanLimitHit | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const { code, detail } = current as { code?: unknown; detail?: unknown };
    if (code === PLAN_LIMIT_SQLSTATE) {
      try {
        const parsed = JSON.parse(String(detail)) as { limit?: unknown; max?: unknown };
        return { limit: String(parsed.limit ?? "unknown"), max: Number(parsed.max ?? 0) };
      } catch {
        return { limit: "unknown", max: 0 };
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a limit is, as a sentence: "Your plan keeps at most 1000 customers". */
function limitSentence(hit: PlanLimitHit): string {
  switch (hit.limit) {
    case "customers":
      return `Your plan keeps at most ${hit.max} customers`;
    case "agent_runs_per_month":
      return hit.max === 0
        ? "Your plan includes no agent runs"
        : `Your plan allows ${hit.max} agent runs a month and this month's are used`;
    default:
      return `Your plan allows at most ${hit.max} (${hit.limit})`;
  }
}

export interface PlanLimitDenial {
  detail: string;
  limit: string;
  max: number;
  /** Codes of the plans on sale that allow more, lowest tier first. */
  plans: string[];
}

/**
 * The 403 body for a reached limit: the limit, its max and the plans on sale that allow more
 * (their limit missing = unlimited, or higher). `outcome` ends the sentence, e.g. "nothing was
 * imported".
 */
export async function describePlanLimit(
  db: Db,
  hit: PlanLimitHit,
  outcome?: string,
): Promise<PlanLimitDenial> {
  const plans = await queryRows<{ code: string; name: string }>(
    db,
    sql`select p.code, p.name from subscription_plans p
        where p.active and (p.limits ->> ${hit.limit} is null
          or (p.limits ->> ${hit.limit})::numeric > ${hit.max})
        order by p.tier, p.sort_order`,
  );
  const upgrade =
    plans.length > 0
      ? `Plans that allow more: ${plans.map((p) => p.name).join(", ")}.`
      : "No plan allows more.";
  const reached = hit.limit === "customers" ? " and that limit is reached" : "";
  const tail = outcome ? `; ${outcome}` : "";
  return {
    detail: `${limitSentence(hit)}${reached}${tail}. ${upgrade}`,
    limit: hit.limit,
    max: hit.max,
    plans: plans.map((p) => p.code),
  };
}
