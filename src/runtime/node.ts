import { serve } from "@hono/node-server";
import { createApp } from "../app";
import { ConfigError, parseConfig } from "../config";
import { buildDeps } from "../deps";
import { createNodeRuntime } from "./node/adapters";

/** `npm start`: every route group on one port, on the embedded defaults unless configured. */
async function main() {
  const started = performance.now();
  const config = parseConfig(process.env);
  const runtime = await createNodeRuntime(config);
  const deps = await buildDeps(config, runtime);
  const app = createApp(deps);

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: "0.0.0.0" }, (info) => {
    deps.logger.info("listening", {
      port: info.port,
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
      await Promise.allSettled([deps.limiter.close?.(), deps.database.close()]);
      process.exit(0);
    });
    // Keep-alive sockets would hold close() open; idle ones can go now.
    (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(JSON.stringify({ level: "error", msg: "start-up failed", error: String(error) }));
  }
  process.exit(1);
});
