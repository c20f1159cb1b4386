import cluster from "node:cluster";
import { ConfigError, parseConfig } from "../config";
import { createLogger } from "../lib/logger";
import { plannedWorkers, runPrimary } from "./node/cluster";
import { DataDirLockedError } from "./node/data-dir-lock";
import { startNodeServer } from "./node/server";

/** The server's own deadline (SHUTDOWN_TIMEOUT_MS) plus this, before the process exits anyway. */
const SHUTDOWN_MARGIN_MS = 2_000;

/**
 * `npm start`: the Node server, on the embedded defaults unless configured. On PostgreSQL with
 * more than one worker (WEB_CONCURRENCY) this process becomes the cluster's primary and each
 * worker runs this file again as one server (ADR 0117).
 */
async function main() {
  const config = parseConfig(process.env);
  if (cluster.isPrimary) {
    const logger = createLogger(config.LOG_LEVEL);
    const { workers, refused } = plannedWorkers(config);
    if (refused) {
      logger.warn("running one process", { web_concurrency: config.WEB_CONCURRENCY, refused });
    }
    if (workers > 1) return runPrimary(config, workers, logger);
  }
  const running = await startNodeServer(config);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(
      () => process.exit(1),
      config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_MARGIN_MS,
    );
    force.unref();
    running.stop(signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
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
