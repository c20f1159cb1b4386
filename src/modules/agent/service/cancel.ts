import { ApiError, notFound } from "../../../http/errors";
import { nowIso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { cancelRunAndRefund } from "../queries";
import { BILLED_STAGES } from "./budget";

/**
 * The stages an agent run is billed for (search, analysis, outreach, save; budget.ts). Cancelling
 * refunds an equal share of the charge per stage not started, rounded down: floor(cost * (4 -
 * started) / 4), so a queued run gets everything back and a run that began saving gets nothing;
 * a run charged less than its price (max_credits) gets back what its started stages did not
 * use. The cancel statement computes it (one statement with the refund; docs/agent.md).
 */

export interface CancelledRun {
  id: string;
  status: "cancelled";
  credits_refunded: number;
  balance: number | null;
}

/**
 * POST /agent/:id/cancel. One statement: a queued or running run the caller may cancel (their
 * own; any of the organisation's for a manager and above) becomes `cancelled`
 * (its row locked first; the running worker's writes are fenced by `status = 'running'`, so it
 * writes nothing more and refunds nothing) and the unused stages' share of its charge
 * (BILLED_STAGES, counted from the stages recorded in pipeline_data) is refunded with its ledger
 * row by credit_refund_part, once. A run the caller does not see is 404; a run that already ended
 * (succeeded, failed, or cancelled before) is 409 and nothing changes.
 */
export async function cancelAgentRun(
  deps: Deps,
  userId: string,
  id: string,
): Promise<CancelledRun> {
  const row = await cancelRunAndRefund(deps.db, {
    userId,
    id,
    billedStages: BILLED_STAGES,
    now: nowIso(deps),
  });
  if (!row?.was) throw notFound("Pipeline not found");
  if (!row.cancelled) {
    throw new ApiError(409, `The run has already ended (${row.was}); there is nothing to cancel`);
  }
  if (row.refunded) deps.metrics.refunded("agent_run", row.refunded);
  return { id, status: "cancelled", credits_refunded: row.refunded ?? 0, balance: row.balance };
}
