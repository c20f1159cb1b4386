import cluster, { type Worker } from "node:cluster";
import { availableParallelism, hostname } from "node:os";
import type { Config } from "../../config";
import type { Logger } from "../../lib/logger";
import { resolveInstanceId } from "./instance-id";
import { serveClusterMetrics } from "./metrics-cluster";

/**
 * How many server processes share the port (ADR 0117): WEB_CONCURRENCY, or one per core when it
 * is 0 (unset), on PostgreSQL only. The embedded database is one process's files under a lock,
 * so it always runs one; `refused` says why when more were asked for.
 */
export function plannedWorkers(config: Config): { workers: number; refused?: string } {
  const asked = config.WEB_CONCURRENCY || availableParallelism();
  if (config.DATABASE_URL) return { workers: asked };
  return config.WEB_CONCURRENCY > 1
    ? {
        workers: 1,
        refused: "the embedded database (no DATABASE_URL) is opened by one process only",
      }
    : { workers: 1 };
}

/** The first restart of a dead worker waits this long; each quick death doubles it. */
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that served this long before dying was healthy: its next restart waits the least. */
const HEALTHY_UPTIME_MS = 30_000;
/** The primary outlasts its workers' own deadline (SHUTDOWN_TIMEOUT_MS + a margin) by this. */
const PRIMARY_SHUTDOWN_MARGIN_MS = 5_000;

interface Slot {
  /** 1-based, stable across restarts: the worker's instance id ends in it. */
  index: number;
  worker?: Worker;
  listeningSince?: number;
  restartDelayMs: number;
  restartTimer?: NodeJS.Timeout;
}

/**
 * The cluster's primary: opens no database and serves nothing; it forks `workers` server
 * processes over one port, worker 1 first and the others once it listens (its start-up runs the
 * migrations, the data rules and the first-start secrets alone), restarts a worker that dies
 * (with backoff), and on SIGTERM/SIGINT forwards the signal, waits for every worker to drain and
 * exits 0 when all exited cleanly.
 */
export async function runPrimary(config: Config, workers: number, logger: Logger): Promise<void> {
  // Each worker k is `<base>-<k>`: a restarted worker k settles what its previous life left.
  // (PORT=0 on a read-only DATA_DIR has no stable name: the host's is the best there is.)
  const baseInstanceId = (await resolveInstanceId(config)) ?? hostname();
  const slots: Slot[] = Array.from({ length: workers }, (_, i) => ({
    index: i + 1,
    restartDelayMs: FIRST_RESTART_DELAY_MS,
  }));
  let stopping: NodeJS.Signals | undefined;
  let startedAll = false;

  // Primary-side services that hear every worker (the metrics aggregator, ADR 0117) attach
  // here, before the first fork, so no worker's message arrives before they listen.
  if (config.METRICS_TOKEN) serveClusterMetrics();

  const fork = (slot: Slot) => {
    const worker = cluster.fork({
      WORKER_INDEX: String(slot.index),
      INSTANCE_ID: `${baseInstanceId}-${slot.index}`,
      // One scheduler for the deployment: its tasks take row locks and send mail, and a second
      // copy would only contend for the same rows (ADR 0117).
      ...(slot.index === 1 ? {} : { SCHEDULER_ENABLED: "false" }),
    });
    slot.worker = worker;
    slot.listeningSince = undefined;
    worker.once("listening", () => {
      slot.listeningSince = Date.now();
      slot.restartDelayMs = FIRST_RESTART_DELAY_MS;
      logger.info("worker listening", { worker: slot.index, pid: worker.process.pid });
      if (slot.index === 1 && !startedAll && !stopping) {
        startedAll = true;
        for (const other of slots.slice(1)) fork(other);
      }
    });
    worker.once("exit", (code, signal) => onExit(slot, worker, code, signal));
  };

  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let unclean = 0;

  const onExit = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    const everListened = slot.listeningSince !== undefined;
    if (stopping) {
      // Killed by the forwarded signal before it installed its own handler: it had nothing to drain.
      const clean = code === 0 || (!everListened && signal === stopping);
      if (!clean) {
        unclean++;
        logger.error("worker did not stop cleanly", { worker: slot.index, code, signal });
      }
      if (slots.every((s) => !s.worker)) finish(unclean === 0 ? 0 : 1);
      return;
    }
    if (!startedAll) {
      // Worker 1's first start failed (configuration, database): the deployment cannot start,
      // and restarting it would only repeat the error; its own output says why.
      logger.error("first worker failed to start", { worker: slot.index, code, signal });
      finish(1);
      return;
    }
    const uptime = everListened ? Date.now() - (slot.listeningSince ?? 0) : 0;
    if (uptime >= HEALTHY_UPTIME_MS) slot.restartDelayMs = FIRST_RESTART_DELAY_MS;
    const delay = slot.restartDelayMs;
    slot.restartDelayMs = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
    logger.error("worker died; restarting", {
      worker: slot.index,
      code,
      signal,
      restart_in_ms: delay,
    });
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (!stopping) fork(slot);
    }, delay);
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = signal;
    logger.info("shutting down workers", { signal });
    for (const slot of slots) {
      clearTimeout(slot.restartTimer);
      slot.restartTimer = undefined;
      slot.worker?.process.kill(signal);
    }
    if (slots.every((s) => !s.worker)) finish(0);
    const force = setTimeout(() => {
      for (const slot of slots) slot.worker?.process.kill("SIGKILL");
      logger.error("workers still running past the shutdown deadline; killed");
      finish(1);
    }, config.SHUTDOWN_TIMEOUT_MS + PRIMARY_SHUTDOWN_MARGIN_MS);
    force.unref();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));

  logger.info("starting workers", { workers, instance_id: baseInstanceId });
  if (!config.REDIS_URL) {
    // The memory store is each process's own: a client spread over N workers gets N budgets.
    logger.warn("rate limits are counted per worker without REDIS_URL", { workers });
  }
  fork(slots[0]!);
  process.exit(await finished);
}
