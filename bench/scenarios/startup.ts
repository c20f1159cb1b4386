import { builtPgliteImage, pgliteImage } from "../../src/runtime/node/pglite-image";
import { fmt } from "../format";
import { type Child, freePort, startNode, waitReady } from "../proc";
import { makeTempDir, removeTempDir } from "../resources";
import type { BenchContext } from "../setup";

export interface StartupResult {
  /** ms from spawn to the first 200 on /health, per run. */
  fresh: number[];
  existing: number[];
  /** Whether every embedded server exited 0 on SIGTERM. */
  cleanExit: boolean;
  /** Whether the migrated image a fresh start loads was there (built by postinstall). */
  image: boolean;
}

/** Embedded start-up: PGlite, no DATABASE_URL/REDIS_URL/secrets, fresh then existing DATA_DIR. */
export async function measureStartup(ctx: BenchContext): Promise<StartupResult> {
  const { startupRuns, appScript } = ctx.settings;
  // As after `npm install`: the postinstall step has built the image (a no-op when it exists).
  await pgliteImage();
  const image = (await builtPgliteImage()) !== undefined;
  const startup: StartupResult = { fresh: [], existing: [], cleanExit: true, image };
  const embeddedEnv = { ...ctx.baseEnv, LOG_LEVEL: "warn" };
  for (let i = 0; i < startupRuns; i++) {
    const dataDir = await makeTempDir("bench-embedded-");
    for (const kind of ["fresh", "existing"] as const) {
      const port = await freePort();
      const since = performance.now();
      const child: Child = startNode(
        `embedded (${kind})`,
        appScript,
        { ...embeddedEnv, PORT: String(port), DATA_DIR: dataDir },
        port,
      );
      startup[kind].push(await waitReady(child, since));
      await child.stop();
      if (child.proc.exitCode !== 0) startup.cleanExit = false;
    }
    await removeTempDir(dataDir);
    ctx.log(
      `embedded start-up ${i + 1}/${startupRuns}: fresh ${fmt(startup.fresh[i]!)} ms, existing ${fmt(startup.existing[i]!)} ms`,
    );
  }
  return startup;
}
