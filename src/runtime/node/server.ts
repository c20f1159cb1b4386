import { createServer, type Server } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "../../app";
import type { Config } from "../../config";
import { buildDeps } from "../../deps";
import { provideDocsBundle } from "../../http/api-docs";
import { pendingMail } from "../../modules/account/service";
import { refreshStaleRatesAtStart } from "../../modules/exchange/service";
import { recoverInstanceWork } from "../../modules/inflight/recovery";
import { provideCjkFont } from "../../modules/quotations/pdf-font";
import { createNodeRuntime } from "./adapters";
import { nodeBrotli } from "./brotli";
import { nodeCjkFont } from "./cjk-font";
import { nodeDocsBundle } from "./docs-bundle";
import { answerClientError, createNodeListener } from "./listener";
import { type Scheduler, startScheduler } from "./scheduler";

export interface NodeServer {
  readonly server: Server;
  /** Drains and closes everything the server opened; resolves when the process may exit. */
  stop(signal: string): Promise<void>;
}

/** One server process: every route group on one port, on the embedded defaults unless configured. */
export async function startNodeServer(config: Config): Promise<NodeServer> {
  const started = performance.now();
  const runtime = await createNodeRuntime(config);
  const deps = await buildDeps(config, runtime);
  // What a previous life of this instance left (held charges, keys in flight, agent runs) is
  // settled before the first request, so a retry after a crash finds its key free.
  await recoverInstanceWork(deps);
  const app = createApp(deps, undefined, { headersSetByRuntime: true, brotli: nodeBrotli });
  // Read lazily on the first PDF export (and the first /docs), never at start-up.
  provideCjkFont(nodeCjkFont);
  provideDocsBundle(nodeDocsBundle);

  // Scheduled jobs in-process (SCHEDULER_ENABLED, on by default); Workers use cron triggers.
  const scheduler: Scheduler | null = config.SCHEDULER_ENABLED ? startScheduler(deps) : null;
  // Rates older than yesterday are refreshed beside the first requests, never before them:
  // each fetch is bounded (5 s) and a failure leaves the stored rates (docs/adr/0090).
  const startupRates = config.SCHEDULER_ENABLED ? refreshStaleRatesAtStart(deps) : null;

  const server = createServer(createNodeListener(getRequestListener(app.fetch)));
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
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive sockets would hold close() open; idle ones can go now.
      server.closeIdleConnections();
      await closed;
      // A task still running finishes before the database it uses is closed.
      // Mails already accepted by a request (verification, reset) go out before exit.
      await Promise.all([scheduler?.stop(), pendingMail(), startupRates]);
      deps.work.stop();
      await Promise.allSettled([
        deps.limiter.close?.(),
        deps.database.close(),
        deps.documents?.close(),
      ]);
    },
  };
}
