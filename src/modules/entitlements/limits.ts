import type { Db } from "../../db/client";
import type { PlanLimitDenial, PlanLimitHit } from "../../lib/plans";
import { listPlansAllowingMore } from "./queries";

export { planLimitHit } from "../../lib/plans";

/**
 * Plan quotas (subscription_plans.limits; a missing key is unlimited). The database holds them:
 * AFTER INSERT triggers on `customers` and `agent_pipelines` (migration 0013) raise SQLSTATE
 * PL001 with DETAIL `{"limit", "max"}` when a statement takes a user past one, so every writer
 * (API, import, agent, assistant) is held to it atomically. This file turns that error into the
 * 403 the API answers (src/http/errors.ts reaches it through deps.entitlements).
 */

/** What a limit is, as a sentence: "Your plan keeps at most 1000 customers". */
function limitSentence(hit: PlanLimitHit): string {
  switch (hit.limit) {
    case "customers":
      return `Your plan keeps at most ${hit.max} customers`;
    case "agent_runs_per_month":
      return hit.max === 0
        ? "Your plan includes no agent runs"
        : `Your plan allows ${hit.max} agent runs a month and this month's are used`;
    case "seats":
      return `Your plan has ${hit.max} seat${hit.max === 1 ? "" : "s"} and they are taken`;
    default:
      return `Your plan allows at most ${hit.max} (${hit.limit})`;
  }
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
  const plans = await listPlansAllowingMore(db, hit);
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
