import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "../../app";
import type { Config } from "../../config";
import { buildDeps } from "../../deps";
import { provideDocsBundle } from "../../http/api-docs";
import { endLiveStreams } from "../../http/live-stream";
import { pendingMail } from "../../modules/account/service";
import { pendingAgentRuns } from "../../modules/agent/service";
import { refreshStaleRatesAtStart } from "../../modules/exchange/service";
import { handBackInstanceWork } from "../../modules/inflight/handback";
import { recoverInstanceWork } from "../../modules/inflight/recovery";
import { pendingJobs } from "../../modules/jobs/background";
import { provideCjkFont } from "../../modules/quotations/pdf-font";
import { createNodeRuntime } from "./adapters";
import { embeddedCluster } from "./backup-embedded";
import { serveBackups } from "./backup-socket";
import { nodeBrotli } from "./brotli";
import { nodeCjkFont } from "./cjk-font";
import { nodeDocsBundle } from "./docs-bundle";
import { watchConnections } from "./drain";
import { answerClientError, createNodeListener } from "./listener";
import { startObservability } from "./observability";
import { type Scheduler, startScheduler } from "./scheduler";

export interface NodeServer {
  readonly server: Server;
  /** Drains and closes everything the server opened; resolves when the process may exit. */
  stop(signal: string): Promise<void>;
}

/** One server process: every route group on one port, on the embedded defaults unless configured. */
export async function startNodeServer(config: Config): Promise<NodeServer> {
  const started = performance.now();
  // `/metrics` and traces when configured (METRICS_TOKEN, OTEL_EXPORTER_OTLP_ENDPOINT).
  const observability = await startObservability(config);
  const runtime = await createNodeRuntime(
    config,
    observability.metrics ? { metrics: observability.metrics } : {},
  );
  const deps = await buildDeps(config, runtime);
  observability.watch({ database: deps.database, documents: deps.documents });
  // What a previous life of this instance left (held charges, keys in flight, agent runs) is
  // settled before the first request, so a retry after a crash finds its key free.
  await recoverInstanceWork(deps);
  // `npm run db:backup` while this runs: the embedded database is dumped here (ADR 0118).
  if (deps.database.kind === "pglite") {
    await serveBackups(embeddedCluster(config.DATA_DIR), deps.database, deps.logger);
  }
  const app = createApp(deps, undefined, { headersSetByRuntime: true, brotli: nodeBrotli });
  // Read lazily on the first PDF export (and the first /docs), never at start-up.
  provideCjkFont(nodeCjkFont);
  provideDocsBundle(nodeDocsBundle);

  // Scheduled jobs in-process (SCHEDULER_ENABLED, on by default); Workers use cron triggers.
  const scheduler: Scheduler | null = config.SCHEDULER_ENABLED ? startScheduler(deps) : null;
  // Rates older than yesterday are refreshed beside the first requests, never before them:
  // each fetch is bounded (5 s) and a failure leaves the stored rates (docs/adr/0090).
  const startupRates = config.SCHEDULER_ENABLED ? refreshStaleRatesAtStart(deps) : null;

  const server = createServer();
  const http = watchConnections(server);
  server.on("request", observability.wrap(createNodeListener(getRequestListener(app.fetch), http)));
  server.on("clientError", answerClientError);
  const host = config.HOST || (config.APP_ENV === "production" ? "0.0.0.0" : "127.0.0.1");
  await new Promise<void>((resolve) => {
    server.listen(config.PORT, host, () => {
      const address = server.address();
      deps.logger.info("listening", {
        host,
        port: typeof address === "object" && address ? address.port : config.PORT,
        database: deps.database.kind,
        rate_limiter: config.REDIS_URL ? "redis" : "memory",
        ready_ms: Math.round(performance.now() - started),
      });
      resolve();
    });
  });

  return {
    server,
    async stop(signal) {
      deps.logger.info("shutting down", { signal });
      const deadline = Date.now() + drainBudgetMs(config.SHUTDOWN_TIMEOUT_MS);
      // Event streams that opted in end now with a `reconnect` event (their clients come back
      // elsewhere) instead of holding the drain until the deadline; the drain closes their
      // connections as they end.
      const streams = endLiveStreams(deps);
      if (streams > 0) deps.logger.info("ending event streams", { streams });
      // Requests are answered and background work finishes side by side, until the deadline.
      const [{ cut }, unfinished] = await Promise.all([
        http.drain(deadline),
        settledBy(deadline, [
          scheduler?.stop(),
          // Mails already accepted by a request (verification, reset) go out before exit.
          pendingMail(),
          startupRates,
          pendingAgentRuns(),
          pendingJobs(),
        ]),
      ]);
      if (cut > 0 || unfinished) {
        deps.logger.warn("shutdown deadline reached", {
          timeout_ms: config.SHUTDOWN_TIMEOUT_MS,
          connections_cut: cut,
          background_work_unfinished: unfinished,
        });
      }
      // Whatever did not finish is given back (holds refunded, keys freed, runs' leases
      // expired) while the database is still open; renewing it stops only then.
      await handBackInstanceWork(deps).catch((error: unknown) =>
        deps.logger.error("hand-back failed; the leases will expire", { error: String(error) }),
      );
      deps.work.stop();
      await Promise.allSettled([
        deps.limiter.close?.(),
        deps.database.close(),
        deps.documents?.close(),
        observability.stop(),
      ]);
    },
  };
}

/**
 * The share of SHUTDOWN_TIMEOUT_MS given to answering requests and finishing work; the rest is
 * kept for handing back what did not finish and closing the pool, so all of it fits the setting.
 */
function drainBudgetMs(timeoutMs: number): number {
  return timeoutMs - Math.min(2_000, Math.floor(timeoutMs / 4));
}

/** Waits for `work` until `deadline` (epoch ms); true when some of it was still running. */
async function settledBy(deadline: number, work: unknown[]): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<true>((resolve) => {
    timer = setTimeout(() => resolve(true), Math.max(0, deadline - Date.now()));
  });
  const done = Promise.allSettled(work).then(() => false);
  const unfinished = await Promise.race([done, late]);
  clearTimeout(timer);
  return unfinished;
}
