import type { Deps } from "../../ports";
import { type KeepAlive, resumeInstanceRuns } from "../agent/service";
import { refundInstanceHolds } from "../credits/holds";
import { releaseInstanceKeys } from "../credits/idempotency";

/**
 * Run by an instance as it starts, before it serves: what a previous life of it left unfinished
 * (it crashed, or was killed mid-request) is settled at once instead of after the leases. Its
 * held charges are refunded, its in-flight Idempotency-Keys freed for the clients' retries, and
 * its agent runs resumed from the stage they reached.
 */
export async function recoverInstanceWork(deps: Deps, keepAlive?: KeepAlive) {
  const refunded = await refundInstanceHolds(deps);
  // Counted by how they were refunded: the statement says how many holds, not their credits.
  deps.metrics.refunded("restart_recovery", null, refunded);
  const keys = await releaseInstanceKeys(deps);
  const runs = await resumeInstanceRuns(deps, keepAlive);
  if (refunded + keys + runs > 0) {
    deps.logger.info("recovered unfinished work of this instance", {
      instance_id: deps.work.instanceId,
      refunded_holds: refunded,
      released_keys: keys,
      resumed_runs: runs,
    });
  }
  return { refunded, keys, runs };
}
