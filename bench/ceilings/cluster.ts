import cluster from "node:cluster";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Runs a bench server (SCRIPT: a ceiling, the Fastify server) as PROCESSES processes on one port
 * with node:cluster, as the app runs WEB_CONCURRENCY workers; one process runs the script alone,
 * with no primary, as the app does at WEB_CONCURRENCY=1. SIGTERM drains every worker and exits 0
 * when all did (the bench checks the exit code).
 */
const script = pathToFileURL(resolve(process.env.SCRIPT ?? "")).href;
const processes = Number(process.env.PROCESSES || 1);

if (processes <= 1 || !cluster.isPrimary) {
  await import(script);
} else {
  let failed = false;
  for (let i = 0; i < processes; i++) cluster.fork();
  cluster.on("exit", (_, code) => {
    if (code !== 0) failed = true;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
  });
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  });
}
