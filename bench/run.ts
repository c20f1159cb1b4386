import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { measureHealthDuringDocuments } from "./documents";
import { measureExtraction } from "./extraction";
import { ROOT } from "./proc";
import { type BenchResults, renderReport, resultJson } from "./report";
import { cleanup, killAllSync, log } from "./resources";
import { renderScaling } from "./scaling-report";
import { measureBillingScenario } from "./scenarios/billing";
import { measureImports } from "./scenarios/import";
import { measureLoad, measureLogin } from "./scenarios/load";
import { measurePdfScenario } from "./scenarios/pdf";
import { measureRoundTrips } from "./scenarios/round-trips";
import { measureScale } from "./scenarios/scale";
import { measureScaling } from "./scenarios/scaling";
import { measureScheduled } from "./scenarios/scheduled";
import { measureSessionChecks } from "./scenarios/session-check";
import { measureStartup } from "./scenarios/startup";
import { measureStatements } from "./scenarios/statements";
import { measureTeamList } from "./scenarios/teams";
import { measureWorkers } from "./scenarios/workers";
import { SETTINGS } from "./settings";
import { startAll } from "./setup";
import { summaryRows, summaryText } from "./summary";

/**
 * The benchmark: starts the database, the app and the ceilings (bench/setup.ts), runs every
 * scenario in a fixed order (bench/scenarios/), then prints the report and writes
 * bench/.out/latest.json (bench/report.ts). Progress goes to stderr, the report to stdout.
 */

process.on("exit", killAllSync);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function main() {
  const startedAt = new Date();
  const t0 = performance.now();
  const loadavgStart = loadavg();
  const watchdog = setTimeout(() => {
    log(`\nwatchdog: still running after ${SETTINGS.watchdogMs / 1000} s, giving up`);
    void cleanup().finally(() => process.exit(1));
  }, SETTINGS.watchdogMs);
  watchdog.unref();

  const ctx = await startAll();

  // Throughput against the ceilings, then the ceilings are no longer needed.
  const load = await measureLoad(ctx);
  await ctx.ceilings.health.child.stop();
  await ctx.ceilings.me.child.stop();
  await ctx.ceilings.list.child.stop();
  const sessionCheck = await measureSessionChecks(ctx);
  const statements = await measureStatements(ctx);
  const login = await measureLogin(ctx);
  // The import runs on the app after the load runs; nothing needs the app after it.
  const customerImport = await measureImports(ctx);
  const healthDuringDocuments = await measureHealthDuringDocuments(ctx);
  await ctx.app.child.stop();
  // Its own servers (the app at 1 and 2 workers, ceilings, Fastify), none other running.
  const scaling = await measureScaling(ctx);
  const roundTrips = await measureRoundTrips(ctx);
  const billing = await measureBillingScenario(ctx);
  const pdf = { ...(await measurePdfScenario(ctx)), healthDuringDocuments };
  const startup = await measureStartup(ctx);
  const workers = await measureWorkers(ctx);
  // At scale, each on a database of its own (seeded in SQL, dropped after).
  const scale = await measureScale({ adminUrl: ctx.db.adminUrl, log: ctx.log });
  const scheduled = await measureScheduled({ adminUrl: ctx.db.adminUrl, log: ctx.log });
  const teamList = await measureTeamList({ adminUrl: ctx.db.adminUrl, log: ctx.log });
  // Accuracy, not time: the inquiry golden set on its own in-process app (bench/extraction.ts).
  const extraction = await measureExtraction();

  const results: BenchResults = {
    run: {
      startedAt,
      durationS: (performance.now() - t0) / 1000,
      loadavgStart,
      loadavgEnd: loadavg(),
      pgVersion: ctx.db.pgVersion,
      dbName: ctx.db.name,
      rateLimiter: ctx.redisUrl ? "redis" : "memory",
      appReadyMs: ctx.app.readyMs,
      health: ctx.health,
      sameShape: ctx.sameShape,
      seed: ctx.seed,
      listBytes: ctx.list.bytes,
      listCeilingSameBody: ctx.list.ceilingSameBody,
    },
    load,
    sessionCheck,
    statements,
    login,
    customerImport,
    roundTrips,
    billing,
    pdf,
    startup,
    workers,
    scale,
    scheduled,
    scaling,
    teamList,
    extraction,
  };
  const summary = summaryRows(results);
  const report = `${summaryText(summary)}\n\n${renderReport(results)}\n\n${renderScaling(scaling)}`;
  process.stdout.write(`\n${report}\n`);

  const outDir = join(ROOT, "bench", ".out");
  await mkdir(outDir, { recursive: true });
  await writeFile(
    join(outDir, "latest.json"),
    `${JSON.stringify({ summary, ...resultJson(results, report), scaling }, null, 2)}\n`,
  );
  log(`wrote bench/.out/latest.json`);
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  exitCode = 1;
  log(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
