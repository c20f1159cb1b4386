import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { createApp } from "../app";
import { ConfigError, parseConfig } from "../config";
import { buildDeps } from "../deps";
import { provideDocsBundle } from "../http/api-docs";
import { pendingMail } from "../modules/account/service";
import { refreshStaleRatesAtStart } from "../modules/exchange/service";
import { recoverInstanceWork } from "../modules/inflight/recovery";
import { provideCjkFont } from "../modules/quotations/pdf-font";
import { createNodeRuntime } from "./node/adapters";
import { nodeBrotli } from "./node/brotli";
import { nodeCjkFont } from "./node/cjk-font";
import { DataDirLockedError } from "./node/data-dir-lock";
import { nodeDocsBundle } from "./node/docs-bundle";
import { answerClientError, createNodeListener } from "./node/listener";
import { type Scheduler, startScheduler } from "./node/scheduler";

/** `npm start`: every route group on one port, on the embedded defaults unless configured. */
async function main() {
  const started = performance.now();
  const config = parseConfig(process.env);
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
  server.listen(config.PORT, host, () => {
    const address = server.address();
    deps.logger.info("listening", {
      host,
      port: typeof address === "object" && address ? address.port : config.PORT,
      database: deps.database.kind,
      rate_limiter: config.REDIS_URL ? "redis" : "memory",
      ready_ms: Math.round(performance.now() - started),
    });
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    deps.logger.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
      // A task still running finishes before the database it uses is closed.
      // Mails already accepted by a request (verification, reset) go out before exit.
      await Promise.all([scheduler?.stop(), pendingMail(), startupRates]);
      deps.work.stop();
      await Promise.allSettled([
        deps.limiter.close?.(),
        deps.database.close(),
        deps.documents?.close(),
      ]);
      process.exit(0);
    });
    // Keep-alive sockets would hold close() open; idle ones can go now.
    server.closeIdleConnections();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(JSON.stringify({ level: "error", msg: "start-up failed", error: String(error) }));
  }
  process.exit(1);
});
