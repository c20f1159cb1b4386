import { ApiError, notFound } from "../../http/errors";
import { iso, nowIso } from "../../lib/clock";
import type { Deps } from "../../ports";
import { billed } from "../ai/billing";
import { type KeepAlive, runDetached } from "../jobs/background";
import { publishJob, qstashPublishing } from "../jobs/qstash";
import {
  type ClaimedJobRow,
  claimJob,
  expireJobLeases,
  failJobAndRefund,
  findJob,
  finishJobSucceeded,
  insertQueuedJob,
  type QueuedJobRow,
  sweepDueJobs,
  writeJobProgress,
} from "./queries";
import type { SearchInput } from "./schemas";
import {
  DISCOVERY_TIMEOUT_MS,
  type DiscoveryProgressEvent,
  discoveryQueries,
  runDiscovery,
} from "./service";
import { storedCompanies } from "./stored-company";
import type { DiscoveryResult } from "./types";

/**
 * Discovery searches run in the background (POST /api/v1/discovery/jobs), the way agent runs
 * are (docs/discovery.md, "Background jobs"): the charge is taken over from its hold by the
 * statement that queues the job; QStash delivers it (else it runs in-process); a worker claims it
 * with a lease and every write of the job is fenced by the `attempts` value it claimed with; the
 * sweep runs it again when its worker died; a failure refunds in the statement that fails it.
 * No checkpoint: a job claimed again searches again (the user is not charged again).
 */

export const DISCOVERY_RUN_JOB = "discovery-run";
/** Claims after which the job fails and refunds (the claim after the third fails it). */
const MAX_JOB_ATTEMPTS = 3;
/**
 * A job's lease: the search's own bound plus a margin. The search cannot outlive its deadline,
 * so no heartbeat is needed; each progress write extends the lease too.
 */
const JOB_LEASE_MS = DISCOVERY_TIMEOUT_MS + 60_000;
/** A job queued for this long without a worker is taken by the sweep (every minute). */
const STALE_QUEUED_JOB_MINUTES = 2;
/** Jobs the sweep takes at most per call. */
const JOB_SWEEP_BATCH = 5;

type StepStatus = "pending" | "running" | "succeeded" | "failed";

interface JobProgress {
  queries: { query: string; status: StepStatus; provider: string | null; results: number | null }[];
  analysis: {
    status: StepStatus | "skipped";
    provider: string | null;
    companies: number | null;
  };
}

export interface JobCaller {
  userId: string;
  idempotencyKey?: string;
  ip: string | null;
}

/** The progress of a job nothing has happened to yet: its 3 queries and the analysis pending. */
function pendingProgress(product: string, market: string): JobProgress {
  return {
    queries: discoveryQueries(product, market).map((query) => ({
      query,
      status: "pending",
      provider: null,
      results: null,
    })),
    analysis: { status: "pending", provider: null, companies: null },
  };
}

/**
 * Charges `discovery` (402 when short, nothing written; an Idempotency-Key charges a retry
 * once), records the queued job and takes the charge over from the hold in the same statement,
 * then hands the job to QStash when configured, else runs it in-process in the background.
 */
export async function startDiscoveryJob(
  deps: Deps,
  caller: JobCaller,
  input: SearchInput,
  keepAlive: KeepAlive,
): Promise<QueuedJobRow & { credits_charged: number; balance: number }> {
  const product = input.product.replace(/\s+/g, " ").trim();
  const market = input.market.replace(/\s+/g, " ").trim();
  const { result, answer } = await billed(
    deps,
    {
      userId: caller.userId,
      operation: "discovery",
      requires: "discovery",
      idempotencyKey: caller.idempotencyKey,
      ip: caller.ip,
      status: 202,
      quoteId: input.quote_id,
    },
    {
      run: async () => undefined,
      // The job takes the charge over from the hold in the statement that records it: from
      // the commit on, a crash is the job's to recover (it refunds when it fails), not the hold's.
      store: (tx, _none, charge) =>
        insertQueuedJob(tx.db, {
          id: deps.ids.uuid(),
          userId: caller.userId,
          product,
          market,
          maxCompanies: input.max_companies ?? null,
          consumptionId: charge.consumptionId,
          creditsCharged: charge.cost,
          balanceAfter: charge.balance,
          progress: pendingProgress(product, market),
          now: nowIso(deps),
        }),
      describe: (row) => ({ job_id: row.id }),
      // Charged now (a job that finds no company gives it back when it ends).
      answer: (row, charge) => ({
        ...row,
        credits_charged: charge.cost,
        balance: charge.balance,
      }),
    },
  );
  await dispatchDiscoveryJob(deps, result.id, keepAlive);
  return answer;
}

/** QStash when configured (a failed publish falls back to in-process), else in-process. */
async function dispatchDiscoveryJob(deps: Deps, jobId: string, keepAlive: KeepAlive) {
  if (await publishedToQstash(deps, jobId)) return;
  runDetached(
    deps,
    "discovery job",
    { job_id: jobId },
    () => runDiscoveryJob(deps, jobId),
    keepAlive,
  );
}

async function publishedToQstash(deps: Deps, jobId: string): Promise<boolean> {
  if (!qstashPublishing(deps.config)) return false;
  try {
    await publishJob(deps.config, DISCOVERY_RUN_JOB, { job_id: jobId });
    return true;
  } catch (error) {
    deps.logger.warn("qstash publish failed; running in-process", {
      job_id: jobId,
      error: String(error),
    });
    return false;
  }
}

/** `attempts` is the fencing token: every later write requires the row to still carry it. */
type ClaimedJob = ClaimedJobRow;

const leaseEnd = (deps: Deps) => new Date(deps.clock.now().getTime() + JOB_LEASE_MS).toISOString();

/**
 * Claims the job in one statement (queued, or running with an expired lease) and runs the
 * search, writing its progress as it goes. Nothing to claim is "skipped"; a worker that lost
 * the job (claimed again after its lease) writes nothing and reports "lease_lost". Never throws
 * for a failure of the search: that fails the job and refunds it.
 */
export async function runDiscoveryJob(
  deps: Deps,
  jobId: string,
): Promise<"skipped" | "succeeded" | "failed" | "lease_lost"> {
  const job = await claimJob(deps.db, {
    id: jobId,
    now: nowIso(deps),
    leaseUntil: leaseEnd(deps),
  });
  if (!job) return "skipped";
  runningHere.set(job.id, job.attempts);
  try {
    return await runClaimedJob(deps, job);
  } finally {
    runningHere.delete(job.id);
  }
}

/* The jobs this process is running ([id, attempts]), for handBackDiscoveryJobs. Module-level on
 * purpose: jobs carry no instance id, and only this process knows which of them are its own. */
const runningHere = new Map<string, number>();

/**
 * At a clean stop: the jobs still running here get a lease that has just expired, so the next
 * sweep (any instance's) runs them again at once instead of after JOB_LEASE_MS. Fenced by the
 * attempts each was claimed with: a job claimed by someone else since is left alone.
 */
export async function handBackDiscoveryJobs(deps: Deps): Promise<number> {
  if (runningHere.size === 0) return 0;
  return expireJobLeases(deps.db, { claims: [...runningHere], now: nowIso(deps) });
}

async function runClaimedJob(
  deps: Deps,
  job: ClaimedJob,
): Promise<"succeeded" | "failed" | "lease_lost"> {
  const progress = pendingProgress(job.product, job.market);
  if (job.attempts > MAX_JOB_ATTEMPTS) {
    return failJob(
      deps,
      job,
      progress,
      `The search did not finish after ${MAX_JOB_ATTEMPTS} attempts; the credits were returned`,
    );
  }
  const writer = progressWriter(deps, job, progress);
  let result: DiscoveryResult;
  try {
    result = await runDiscovery(
      deps,
      {
        product: job.product,
        market: job.market,
        userId: job.user_id,
        ...(job.max_companies ? { maxCompanies: job.max_companies } : {}),
      },
      (event) => {
        applyProgress(progress, event);
        writer.push();
      },
    );
  } catch (error) {
    if (!(await writer.flush())) return "lease_lost";
    deps.logger.warn("discovery job failed", { job_id: job.id, error: String(error) });
    markRunningFailed(progress);
    return failJob(deps, job, progress, searchFailure(error));
  }
  if (!(await writer.flush())) return "lease_lost";
  try {
    return (await finishSucceeded(deps, job, progress, result)) ? "succeeded" : "lease_lost";
  } catch (error) {
    // An unexpected failure (database, bug): fail the job and return the credits.
    deps.logger.error("discovery job failed unexpectedly", {
      job_id: job.id,
      error: String(error),
    });
    return failJob(
      deps,
      job,
      progress,
      "The search failed unexpectedly; the credits were returned",
    );
  }
}

function applyProgress(progress: JobProgress, event: DiscoveryProgressEvent) {
  if (event.step === "query") {
    const query = progress.queries[event.index];
    if (!query) return;
    query.status = event.status;
    if (event.status === "succeeded") {
      query.provider = event.provider;
      query.results = event.results;
    }
    return;
  }
  progress.analysis.status = event.status;
  if (event.status === "succeeded") {
    progress.analysis.provider = event.provider;
    progress.analysis.companies = event.companies;
  }
}

/** The search threw: what was running failed with it, and what never started stays pending. */
function markRunningFailed(progress: JobProgress) {
  for (const query of progress.queries) if (query.status === "running") query.status = "failed";
  if (progress.analysis.status === "running") progress.analysis.status = "failed";
}

/**
 * Writes the latest progress, one UPDATE at a time (a write asked for while one is waiting is
 * covered by it), fenced by the claim; extends the lease. Progress is best effort: a failed
 * write is logged and the next one carries it. `flush` waits for the writes and says whether
 * the job is still this worker's.
 */
function progressWriter(deps: Deps, job: ClaimedJob, progress: JobProgress) {
  let chain: Promise<void> = Promise.resolve();
  let waiting = false;
  let lost = false;
  const write = async () => {
    waiting = false;
    if (lost) return;
    const written = await writeJobProgress(deps.db, {
      job,
      progress,
      leaseUntil: leaseEnd(deps),
      now: nowIso(deps),
    });
    if (!written) lost = true;
  };
  return {
    push() {
      if (waiting || lost) return;
      waiting = true;
      chain = chain.then(write).catch((error: unknown) => {
        deps.logger.warn("discovery job progress not written", {
          job_id: job.id,
          error: String(error),
        });
      });
    },
    async flush(): Promise<boolean> {
      await chain;
      return !lost;
    },
  };
}

/**
 * One statement: the job becomes `failed` (fenced by the claim) and its consumption is refunded
 * (credit_refund: once, with its ledger row). A worker that lost the job refunds nothing.
 */
async function failJob(
  deps: Deps,
  job: ClaimedJob,
  progress: JobProgress,
  error: string,
): Promise<"failed" | "lease_lost"> {
  const failed = await failJobAndRefund(deps.db, { job, progress, error, now: nowIso(deps) });
  if (!failed) return "lease_lost";
  if (failed.refunded > 0) deps.metrics.refunded("discovery", failed.refunded);
  return "failed";
}

/**
 * One statement, fenced by the claim: the companies are saved as a discovery record of the
 * user and the job becomes `succeeded` with the result and the record's id. A search that found
 * no company is refunded in that statement (credit_refund, with its ledger row): the job then
 * says `credits_charged: 0` and the balance after the refund.
 */
async function finishSucceeded(
  deps: Deps,
  job: ClaimedJob,
  progress: JobProgress,
  result: DiscoveryResult,
): Promise<boolean> {
  const done = await finishJobSucceeded(deps.db, { job, progress, result, now: nowIso(deps) });
  if (done && done.refunded > 0) deps.metrics.refunded("discovery", done.refunded);
  return done !== undefined;
}

/** What a user may read about a failed search: never a provider's or an exception's text. */
function searchFailure(error: unknown): string {
  if (error instanceof ApiError && error.status < 500) {
    return `The discovery search could not run: ${error.detail}; the credits were returned`;
  }
  if (error instanceof ApiError && error.code === "timed_out") return error.detail;
  if (error instanceof ApiError) {
    return "The search or AI service was unavailable; the credits were returned";
  }
  return "The discovery search failed; the credits were returned";
}

/**
 * Recovery for jobs nobody is working on: jobs whose lease expired (their worker died) and jobs
 * queued for over STALE_QUEUED_JOB_MINUTES (a lost dispatch), at most JOB_SWEEP_BATCH per call,
 * oldest first. With QStash they are published again; without, they run here one after another.
 * Cheap when there is nothing to do (one query on discovery_jobs_open_idx). Every minute.
 */
export async function sweepDiscoveryJobs(
  deps: Deps,
): Promise<{ found: number; published: number; ran: number }> {
  const now = deps.clock.now();
  const staleQueued = new Date(now.getTime() - STALE_QUEUED_JOB_MINUTES * 60_000).toISOString();
  return sweepDueJobs(deps.db, {
    now: now.toISOString(),
    staleQueued,
    limit: JOB_SWEEP_BATCH,
    redeliver: async (id) => {
      if (await publishedToQstash(deps, id)) return "published";
      return (await runDiscoveryJob(deps, id)) === "skipped" ? "skipped" : "ran";
    },
    onError: (id, error) =>
      deps.logger.error("discovery job sweep run failed", { job_id: id, error: String(error) }),
  });
}

/** jsonb as the driver hands it over: parsed, or (some drivers) as text. */
const parsedJson = <T>(value: unknown): T =>
  (typeof value === "string" ? JSON.parse(value) : value) as T;

/**
 * One job the caller sees (their own; any of the organisation's for a manager and above); any
 * other is as missing as one that does not exist.
 */
export async function getDiscoveryJob(deps: Deps, userId: string, id: string) {
  const row = await findJob(deps.db, { userId, id });
  if (!row) throw notFound("Discovery job not found");
  const stored = row.result === null ? null : parsedJson<DiscoveryResult>(row.result);
  const result = stored && { ...stored, companies: storedCompanies(stored.companies) };
  return {
    id: row.id,
    status: row.status,
    product: row.product,
    market: row.market,
    max_companies: row.max_companies,
    progress: parsedJson<JobProgress>(row.progress),
    result: result && {
      ...result,
      credits_charged: row.credits_charged,
      balance: row.balance_after,
    },
    record_id: row.record_id,
    error: row.error,
    attempts: row.attempts,
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    org_id: row.org_id,
    user_id: row.user_id,
    owner_name: row.owner_name,
  };
}
