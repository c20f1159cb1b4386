import type { Deps } from "../../ports";
import { handBackInstanceRuns } from "../agent/service";
import { refundInstanceHolds } from "../credits/holds";
import { releaseInstanceKeys } from "../credits/idempotency";
import { handBackDiscoveryJobs } from "../discovery/jobs";

/**
 * Run by an instance as it stops, after its requests were answered and its background work had
 * until the deadline: what is still unfinished is given back now instead of after the leases.
 * Holds still open are refunded (with their ledger row), in-flight Idempotency-Keys freed for
 * the clients' retries, and agent runs and discovery jobs still running get an expired lease, so
 * another instance resumes them at once. A restart's recovery (recovery.ts), minus the resuming.
 */
export async function handBackInstanceWork(deps: Deps) {
  const refunded = await refundInstanceHolds(deps);
  const keys = await releaseInstanceKeys(deps);
  const runs = await handBackInstanceRuns(deps);
  const jobs = await handBackDiscoveryJobs(deps);
  if (refunded + keys + runs + jobs > 0) {
    deps.logger.info("handed back unfinished work of this instance", {
      instance_id: deps.work.instanceId,
      refunded_holds: refunded,
      released_keys: keys,
      handed_back_runs: runs,
      handed_back_jobs: jobs,
    });
  }
  return { refunded, keys, runs, jobs };
}
