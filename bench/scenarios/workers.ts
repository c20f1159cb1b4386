// Issue #13 item 5: the size of every Worker as wrangler would upload it, and its cold start in
// workerd (the one miniflare ships), from starting the runtime to the first answer.
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { Miniflare } from "miniflare";
import { unstable_readConfig } from "wrangler";
import {
  measureWorkerSizes,
  WORKER_GZIP_LIMIT_KIB,
  type WorkerSize,
  WRANGLER_TOML,
} from "../../scripts/worker-sizes";
import { median } from "../load";

const WORKERS_RUNS = 3;
/** Cheap, database-free: liveness answers without touching PostgreSQL. */
const COLD_START_PATH = "/health";

/** Settings the app refuses to start without; the database is never reached on /health. */
const BINDINGS = {
  DATABASE_URL: "postgres://nobody@127.0.0.1:9/none",
  JWT_SECRET: "3nJUFmkEhWPKS3rmH1CFWKAUzCYYIQjjyy-tXjXwMwo",
  CSRF_SECRET: "MR3hgdMkhWSx_6urUswyd52DvckziN0mLwzQPExApi8",
  APP_ENCRYPTION_KEY: "g4l7HyFf-010-hdNIL7vr5af3c1286JiQkEwI5zHgHY",
  APP_ENV: "production",
  LOG_LEVEL: "warn",
  PUBLIC_BASE_URL: "https://app.example.test",
  CORS_ORIGINS: "https://app.example.test",
  FRONTEND_URL: "https://app.example.test",
  ALLOW_MEMORY_RATE_LIMIT: "true",
  ALLOW_NO_MAIL: "true",
};

/** The smallest Worker: what starting workerd costs before any script of ours. */
const BASELINE_SCRIPT = `export default { fetch: () => new Response("ok") };`;

interface ColdStart {
  /** `new Miniflare()` to ready: workerd spawned, its config loaded, the script compiled and run. */
  readyMs: number;
  /** Ready to the first answer: the isolate builds the app (deps, routes) and answers. */
  firstAnswerMs: number;
  /** Load to first answer: readyMs + firstAnswerMs. */
  totalMs: number;
  /** The second request, for scale: what a warm isolate takes. */
  warmMs: number;
  /** Status of the first answer (200 expected). */
  status: number;
}

interface WorkerFigures {
  size: Omit<WorkerSize, "outdir" | "main" | "packages">;
  coldStart: ColdStart;
  /** readyMs minus the baseline's: parsing, compiling and running the script's top level. */
  scriptLoadMs: number;
}

export interface WorkersResult {
  limitKiB: number;
  runs: number;
  path: string;
  baseline: ColdStart;
  workers: WorkerFigures[];
}

type MiniflareOptions = ConstructorParameters<typeof Miniflare>[0];

async function coldStart(options: MiniflareOptions, path: string): Promise<ColdStart> {
  const started = performance.now();
  const mf = new Miniflare({ ...options, host: "127.0.0.1", port: 0, verbose: false });
  try {
    await mf.ready;
    const ready = performance.now();
    const first = await mf.dispatchFetch(`http://localhost${path}`);
    await first.arrayBuffer();
    const answered = performance.now();
    const warm = await mf.dispatchFetch(`http://localhost${path}`);
    await warm.arrayBuffer();
    const warmed = performance.now();
    return {
      readyMs: ready - started,
      firstAnswerMs: answered - ready,
      totalMs: answered - started,
      warmMs: warmed - answered,
      status: first.status,
    };
  } finally {
    await mf.dispose();
  }
}

const medianStart = (runs: ColdStart[]): ColdStart => ({
  readyMs: median(runs.map((r) => r.readyMs)),
  firstAnswerMs: median(runs.map((r) => r.firstAnswerMs)),
  totalMs: median(runs.map((r) => r.totalMs)),
  warmMs: median(runs.map((r) => r.warmMs)),
  status: runs.find((r) => r.status !== 200)?.status ?? 200,
});

/**
 * The Worker as wrangler bundled it (outdir: the entry and its .wasm modules), run as
 * wrangler.toml configures its env. Modules are listed, not discovered: miniflare refuses to
 * follow a bundle's dynamic import() with a computed specifier (the ai SDK has one).
 */
async function workerOptions(size: WorkerSize): Promise<MiniflareOptions> {
  const config = unstable_readConfig(
    { config: WRANGLER_TOML, env: size.env },
    { hideWarnings: true },
  );
  const wasm = (await readdir(size.outdir)).filter((name) => name.endsWith(".wasm"));
  return {
    modulesRoot: size.outdir,
    modules: [
      { type: "ESModule", path: join(size.outdir, size.main) },
      ...wasm.map((name) => ({ type: "CompiledWasm" as const, path: join(size.outdir, name) })),
    ],
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: { ...config.vars, ...BINDINGS },
  };
}

export async function measureWorkers(ctx: { log: (line: string) => void }): Promise<WorkersResult> {
  const { root, sizes } = await measureWorkerSizes({ keep: true, log: ctx.log });
  try {
    const baselineRuns: ColdStart[] = [];
    const runs = new Map<string, ColdStart[]>(sizes.map((size) => [size.env, []]));
    const options = new Map(
      await Promise.all(sizes.map(async (size) => [size.env, await workerOptions(size)] as const)),
    );
    // Runs interleaved (baseline, then each Worker, three times) so drift spreads over all.
    for (let run = 1; run <= WORKERS_RUNS; run++) {
      ctx.log(`workers: cold starts, run ${run}/${WORKERS_RUNS}`);
      baselineRuns.push(
        await coldStart(
          { modules: true, script: BASELINE_SCRIPT, compatibilityDate: "2026-04-01" },
          COLD_START_PATH,
        ),
      );
      for (const size of sizes) {
        runs.get(size.env)!.push(await coldStart(options.get(size.env)!, COLD_START_PATH));
      }
    }
    const baseline = medianStart(baselineRuns);
    return {
      limitKiB: WORKER_GZIP_LIMIT_KIB,
      runs: WORKERS_RUNS,
      path: COLD_START_PATH,
      baseline,
      workers: sizes.map(({ outdir: _outdir, main: _main, packages: _packages, ...size }) => {
        const start = medianStart(runs.get(size.env)!);
        return {
          size,
          coldStart: start,
          scriptLoadMs: median(
            runs.get(size.env)!.map((r, i) => r.readyMs - baselineRuns[i]!.readyMs),
          ),
        };
      }),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
