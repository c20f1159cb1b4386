// Standalone run of the worker scaling (issue #25 item 3): `npx tsx bench/workers-scaling.ts`.
// The database, users and customers as `npm run bench` makes them (bench/setup.ts); the servers
// startAll starts are stopped first, so only the section's servers share the cores.
import { cleanup, killAllSync, log } from "./resources";
import { renderScaling } from "./scaling-report";
import { measureScaling } from "./scenarios/scaling";
import { startAll } from "./setup";

process.on("exit", killAllSync);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => void cleanup().finally(() => process.exit(130)));
}

let exitCode = 0;
try {
  const ctx = await startAll();
  await Promise.all([
    ctx.app.child.stop(),
    ...Object.values(ctx.ceilings).map((ceiling) => ceiling.child.stop()),
  ]);
  process.stdout.write(`\n${renderScaling(await measureScaling(ctx))}\n`);
} catch (error) {
  exitCode = 1;
  log(`\nbench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
