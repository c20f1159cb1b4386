import { nowIso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import { billed } from "../../ai/billing";
import type { KeepAlive } from "../../jobs/background";
import { publishJob, qstashPublishing } from "../../jobs/qstash";
import { expireInstanceLeases, insertQueuedRun, type QueuedRunRow, sweepDueRuns } from "../queries";
import type { StartAgentInput } from "../schemas";
import { runAgentPipeline } from "./pipeline";

export const AGENT_RUN_JOB = "agent-run";

export interface AgentCaller {
  userId: string;
  idempotencyKey?: string;
  ip: string | null;
}

export type { KeepAlive };

/* In-process runs that have not settled yet. Module-level on purpose: a run outlives the
 * request that started it, and tests (or a graceful shutdown) await them via pendingAgentRuns. */
const inFlight = new Set<Promise<void>>();

/** Resolves once every in-process agent run started so far has settled (never rejects). */
export async function pendingAgentRuns(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Runs the pipeline detached from the request: errors are logged, never unhandled. */
function runInBackground(deps: Deps, pipelineId: string, keepAlive: KeepAlive): void {
  const task: Promise<void> = runAgentPipeline(deps, pipelineId)
    .then(() => undefined)
    .catch((error: unknown) => {
      deps.logger.error("agent run crashed", { pipeline_id: pipelineId, error: String(error) });
    })
    .finally(() => inFlight.delete(task));
  inFlight.add(task);
  keepAlive?.(task);
}

/** What POST /agent/start answers. */
export type StartedRun = QueuedRunRow & { credits_charged: number };

/**
 * POST /agent/start: charges `agent_run` (402 when short, nothing written; an Idempotency-Key
 * charges a retry once), exactly the quote's credits with `quote_id`, at most `max_credits`
 * (ADR 0108), records the queued pipeline with the charge's consumption, its price and budget,
 * and hands it to QStash when configured, else runs it in-process in the background. A failed
 * publish falls back to the in-process run (the lease and the sweep cover a run that dies there).
 */
export async function startAgentRun(
  deps: Deps,
  caller: AgentCaller,
  input: StartAgentInput,
  keepAlive: KeepAlive,
): Promise<StartedRun> {
  const maxCredits = input.max_credits ?? null;
  const { answer } = await billed(
    deps,
    {
      userId: caller.userId,
      operation: "agent_run",
      requires: "discovery",
      idempotencyKey: caller.idempotencyKey,
      ip: caller.ip,
      status: 202,
      quoteId: input.quote_id,
      ...(maxCredits !== null ? { maxCredits } : {}),
    },
    {
      run: async () => undefined,
      // The run takes the charge over from the hold in the statement that records it: from
      // the commit on, a crash is the run's to recover (it refunds when it fails), not the hold's.
      store: (tx, _none, charge) =>
        insertQueuedRun(tx.db, {
          id: deps.ids.uuid(),
          userId: caller.userId,
          product: input.product,
          market: input.market,
          maxLeads: input.max_leads,
          consumptionId: charge.consumptionId,
          price: charge.price,
          maxCredits,
          now: nowIso(deps),
        }),
      describe: (row) => ({ pipeline_id: row.id }),
      answer: (row, charge) => ({ ...row, credits_charged: charge.cost }),
    },
  );
  await dispatchAgentRun(deps, answer.id, keepAlive);
  return answer;
}

async function dispatchAgentRun(deps: Deps, pipelineId: string, keepAlive: KeepAlive) {
  if (await publishedToQstash(deps, pipelineId)) return;
  runInBackground(deps, pipelineId, keepAlive);
}

/** QStash when configured; a failed publish is logged and answers false (run it here). */
async function publishedToQstash(deps: Deps, pipelineId: string): Promise<boolean> {
  if (!qstashPublishing(deps.config)) return false;
  try {
    await publishJob(deps.config, AGENT_RUN_JOB, { pipeline_id: pipelineId });
    return true;
  } catch (error) {
    deps.logger.warn("qstash publish failed; running in-process", {
      pipeline_id: pipelineId,
      error: String(error),
    });
    return false;
  }
}

/** A queued run nobody picked up for this long is taken by the sweep (every minute). */
const STALE_QUEUED_MINUTES = 2;
/** Runs the sweep takes at most per call. */
const SWEEP_BATCH = 5;

/**
 * Recovery for runs nobody is working on: runs whose lease expired (their worker died) and runs
 * queued for over STALE_QUEUED_MINUTES (a lost dispatch), at most SWEEP_BATCH per call, oldest
 * first. With QStash they are published again (the delivery claims them; a duplicate delivery
 * finds nothing to claim); without, they run here one after another (one user's runs never
 * save concurrently). Meant for a periodic caller; cheap when there is nothing to do (one
 * indexed query on agent_pipelines_open_idx).
 */
export async function sweepAgentPipelines(
  deps: Deps,
): Promise<{ found: number; published: number; ran: number }> {
  const now = deps.clock.now();
  const staleQueued = new Date(now.getTime() - STALE_QUEUED_MINUTES * 60_000).toISOString();
  return sweepDueRuns(deps.db, {
    now: now.toISOString(),
    staleQueued,
    limit: SWEEP_BATCH,
    redeliver: async (id) => {
      if (await publishedToQstash(deps, id)) return "published";
      return (await runAgentPipeline(deps, id)) === "skipped" ? "skipped" : "ran";
    },
    onError: (id, error) =>
      deps.logger.error("agent sweep run failed", { pipeline_id: id, error: String(error) }),
  });
}

/**
 * At start-up: the runs a previous life of this instance was working on are claimed again at
 * once (not after their lease) and resumed here from the stage they reached.
 */
export async function resumeInstanceRuns(deps: Deps, keepAlive: KeepAlive): Promise<number> {
  const rows = await expireInstanceLeases(deps.db, {
    instanceId: deps.work.instanceId,
    now: nowIso(deps),
  });
  for (const { id } of rows) runInBackground(deps, id, keepAlive);
  return rows.length;
}

/**
 * At a clean stop: the runs this instance is still running get a lease that has just expired,
 * so another instance (or this one's next life) claims them at once and resumes them from the
 * stage they reached. A write this process still makes is fenced off by the new claim.
 */
export async function handBackInstanceRuns(deps: Deps): Promise<number> {
  const rows = await expireInstanceLeases(deps.db, {
    instanceId: deps.work.instanceId,
    now: nowIso(deps),
  });
  return rows.length;
}
