import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { PipelineStatus } from "../../db/schema/discovery";
import type { Deps } from "../../deps";
import { ApiError, notFound } from "../../http/errors";
import { nowIso } from "../../lib/clock";

/**
 * The stages an agent run is billed for (search, analysis, outreach, save). Cancelling refunds
 * an equal share of the charge per stage not started, rounded down: floor(cost * (4 - started)
 * / 4), so a queued run gets everything back and a run that began saving gets nothing. The
 * cancel statement computes it (one statement with the refund; docs/agent.md has the table).
 */
const BILLED_STAGES = 4;

export interface CancelledRun {
  id: string;
  status: "cancelled";
  credits_refunded: number;
  balance: number | null;
}

/**
 * POST /agent/:id/cancel. One statement: the caller's queued or running run becomes `cancelled`
 * (its row locked first; the running worker's writes are fenced by `status = 'running'`, so it
 * writes nothing more and refunds nothing) and the unused stages' share of its charge
 * (BILLED_STAGES, counted from the stages recorded in pipeline_data) is refunded with its ledger
 * row by credit_refund_part, once. Another user's run is 404; a run that already ended
 * (succeeded, failed, or cancelled before) is 409 and nothing changes.
 */
export async function cancelAgentRun(
  deps: Deps,
  userId: string,
  id: string,
): Promise<CancelledRun> {
  const now = nowIso(deps);
  const [row] = await queryRows<{
    was: PipelineStatus;
    cancelled: boolean;
    refunded: number | null;
    balance: number | null;
  }>(
    deps.db,
    sql`with target as (
          select id, status, consumption_id,
            jsonb_array_length(coalesce(pipeline_data -> 'stages', '[]'::jsonb)) as started
          from agent_pipelines where id = ${id} and user_id = ${userId}
          for update),
        cancelled as (
          update agent_pipelines p
          set status = 'cancelled', error = 'Cancelled by the user', lease_until = null,
            checkpoint = null, finished_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          from target t
          where p.id = t.id and t.status in ('queued', 'running')
          returning p.id, t.consumption_id, t.started),
        owed as (
          select c.id as consumption_id,
            (c.cost * (${BILLED_STAGES} - least(greatest(x.started, 0), ${BILLED_STAGES}))
              / ${BILLED_STAGES})::int as amount
          from cancelled x join credit_consumptions c on c.id = x.consumption_id),
        refund as (
          select r.applied, r.balance, r.amount from owed
          cross join lateral credit_refund_part(owed.consumption_id, owed.amount,
            'agent_run cancelled', ${now}::timestamptz) r)
      select (select status from target) as was,
        exists (select 1 from cancelled) as cancelled,
        (select amount from refund where applied) as refunded,
        coalesce((select balance from refund),
          (select balance from user_credits where user_id = ${userId})) as balance`,
  );
  if (!row?.was) throw notFound("Pipeline not found");
  if (!row.cancelled) {
    throw new ApiError(409, `The run has already ended (${row.was}); there is nothing to cancel`);
  }
  return { id, status: "cancelled", credits_refunded: row.refunded ?? 0, balance: row.balance };
}
