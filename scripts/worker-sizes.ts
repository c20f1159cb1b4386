/**
 * The size of every Worker as `wrangler deploy --dry-run` would upload it, checked against
 * Cloudflare's limit for the free plan (1 MB gzipped, 1024 KiB): a table, and exit code 1 when
 * any Worker reaches it (docs/adr/0079-worker-size.md). Run in CI, and by the bench
 * (bench/scenarios/workers.ts).
 *
 *   npx tsx scripts/worker-sizes.ts
 */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify, stripVTControlCharacters } from "node:util";
import { gzipSync } from "node:zlib";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const WRANGLER_TOML = join(ROOT, "wrangler.toml");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** Cloudflare's script size limit (free plan), on the gzipped upload. */
export const WORKER_GZIP_LIMIT_KIB = 1024;

export interface WorkerSize {
  env: string;
  /** As wrangler reports it: "Total Upload: <raw> KiB / gzip: <gzip> KiB". */
  rawKiB: number;
  gzipKiB: number;
  /** Our own gzip of the same files (every uploaded module, concatenated as wrangler does). */
  checkedGzipKiB: number;
  /** npm packages bundled into the script (from esbuild's metafile), sorted. */
  packages: string[];
  /** Bundled sources that read the Stripe provider (`.payments.stripe`). */
  stripeReaders: string[];
  /** Whether the Worker's entry (functions/<env>.ts) hands in the Stripe provider's factory. */
  stripeFactory: boolean;
  /** The directory wrangler wrote the bundle to (kept only when asked, for the cold start). */
  outdir: string;
  /** The entry module in outdir. */
  main: string;
}

/** The environments of wrangler.toml, in file order: every `[env.<name>]` table. */
export async function wranglerEnvs(configPath = WRANGLER_TOML): Promise<string[]> {
  const text = await readFile(configPath, "utf8");
  return [...text.matchAll(/^\[env\.([A-Za-z0-9_-]+)\]\s*$/gm)].map((match) => match[1]!);
}

const TOTAL_UPLOAD = /Total Upload:\s*([\d.]+) KiB \/ gzip:\s*([\d.]+) KiB/;

/** Parses wrangler's size line; throws when it is missing (wrangler changed its output). */
export function parseTotalUpload(output: string): { rawKiB: number; gzipKiB: number } {
  const match = TOTAL_UPLOAD.exec(stripVTControlCharacters(output));
  if (!match) throw new Error(`no "Total Upload" line in wrangler's output:\n${output}`);
  return { rawKiB: Number(match[1]), gzipKiB: Number(match[2]) };
}

/** Files wrangler writes beside the upload that are not uploaded. */
const NOT_UPLOADED = (name: string) => name.endsWith(".map") || name === "README.md";

/**
 * wrangler gzips the uploaded modules as one stream (the other modules, then the entry): the
 * same here from the files in outdir, as a check that its figure covers everything uploaded.
 */
async function gzipOfOutdir(outdir: string, main: string): Promise<number> {
  const names = (await readdir(outdir)).filter((name) => !NOT_UPLOADED(name) && name !== main);
  const files = await Promise.all(
    [...names.sort(), main].map((name) => readFile(join(outdir, name))),
  );
  return gzipSync(Buffer.concat(files)).byteLength / 1024;
}

/**
 * Libraries that weigh hundreds of KiB each and which Workers may bundle them: a route that
 * needs one belongs to one of these groups (docs/adr/0079-worker-size.md).
 */
export const HEAVY_PACKAGES: Record<string, readonly string[]> = {
  exceljs: ["documents"],
  "pdf-lib": ["documents"],
  fontkit: ["documents"],
};

/** Heavy packages a Worker bundles without being allowed to. */
export const misplacedPackages = (size: WorkerSize): string[] =>
  size.packages.filter((name) => HEAVY_PACKAGES[name] && !HEAVY_PACKAGES[name].includes(size.env));

/**
 * A Worker that reads the Stripe provider but whose entry does not hand in its factory: its card
 * payments would answer "not configured" whatever its secrets (src/deps.ts RuntimeAdapters.stripe).
 */
export const stripeWithoutFactory = (size: WorkerSize): boolean =>
  size.stripeReaders.length > 0 && !size.stripeFactory;

/** The project's own files among the bundle's inputs (paths relative to the root). */
async function bundledSources(metafile: string): Promise<string[]> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as { inputs: Record<string, unknown> };
  return Object.keys(meta.inputs).filter((input) => /^(src|functions)\//.test(input));
}

async function stripeUse(sources: string[]): Promise<{ readers: string[]; factory: boolean }> {
  const texts = await Promise.all(
    sources.map(async (file) => [file, await readFile(join(ROOT, file), "utf8")] as const),
  );
  return {
    readers: texts
      .filter(([file, text]) => file.startsWith("src/") && /\.payments\.stripe\b/.test(text))
      .map(([file]) => file),
    factory: texts.some(
      ([file, text]) =>
        file.startsWith("functions/") && /stripe:\s*createStripeProvider/.test(text),
    ),
  };
}

/** The npm packages esbuild's metafile lists as inputs of the bundle. */
async function bundledPackages(metafile: string): Promise<string[]> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as { inputs: Record<string, unknown> };
  const names = new Set<string>();
  for (const input of Object.keys(meta.inputs)) {
    // The innermost node_modules names the package (a/node_modules/exceljs is exceljs).
    const match = /^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    if (match) names.add(match[1]!);
  }
  return [...names].sort();
}

const run = promisify(execFile);

/** One Worker bundled by `wrangler deploy --dry-run` into a fresh directory, and measured. */
export async function measureWorkerSize(env: string, outdir: string): Promise<WorkerSize> {
  const { stdout, stderr } = await run(
    WRANGLER,
    [
      "deploy",
      "--dry-run",
      "--env",
      env,
      "--outdir",
      outdir,
      "--metafile",
      `${outdir}.meta.json`,
      "--config",
      WRANGLER_TOML,
    ],
    {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
      // The caller's environment (PATH, HOME) plus: no metrics, no request to Cloudflare.
      // biome-ignore lint/style/noProcessEnv: handed on to the wrangler child unchanged.
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    },
  );
  const { rawKiB, gzipKiB } = parseTotalUpload(`${stdout}\n${stderr}`);
  const main = (await readdir(outdir)).find(
    (name) => name.endsWith(".js") && !NOT_UPLOADED(name) && !/^[0-9a-f]{40}-/.test(name),
  );
  if (!main) throw new Error(`no entry module in ${outdir}`);
  const stripe = await stripeUse(await bundledSources(`${outdir}.meta.json`));
  return {
    env,
    rawKiB,
    gzipKiB,
    checkedGzipKiB: await gzipOfOutdir(outdir, main),
    packages: await bundledPackages(`${outdir}.meta.json`),
    stripeReaders: stripe.readers,
    stripeFactory: stripe.factory,
    outdir,
    main,
  };
}

/**
 * Every environment of wrangler.toml, one after the other (bundling takes a core each). The
 * bundles are removed unless `keep` is set (the caller then removes `root`).
 */
export async function measureWorkerSizes(
  options: { keep?: boolean; log?: (line: string) => void } = {},
): Promise<{ root: string; sizes: WorkerSize[] }> {
  const root = await mkdtemp(join(tmpdir(), "worker-sizes-"));
  const sizes: WorkerSize[] = [];
  try {
    for (const env of await wranglerEnvs()) {
      options.log?.(`bundling ${env}`);
      sizes.push(await measureWorkerSize(env, join(root, env)));
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  if (!options.keep) await rm(root, { recursive: true, force: true });
  return { root, sizes };
}

/** Over or at the limit: what CI refuses. */
export const overLimit = (size: WorkerSize) => size.gzipKiB >= WORKER_GZIP_LIMIT_KIB;

/** wrangler's figure and ours may differ by gzip's framing and the module order only. */
export const checkAgrees = (size: WorkerSize) =>
  Math.abs(size.checkedGzipKiB - size.gzipKiB) <= Math.max(2, size.gzipKiB * 0.02);

export function formatWorkerSizes(sizes: readonly WorkerSize[]): string {
  const lines = [
    `worker      raw KiB   gzip KiB  (own gzip)  limit ${WORKER_GZIP_LIMIT_KIB} KiB gzipped`,
  ];
  for (const size of sizes) {
    lines.push(
      [
        size.env.padEnd(10),
        size.rawKiB.toFixed(1).padStart(9),
        size.gzipKiB.toFixed(1).padStart(10),
        `(${size.checkedGzipKiB.toFixed(1)})`.padStart(11),
        overLimit(size) ? " MISSED" : " MET",
        checkAgrees(size) ? "" : " (own gzip disagrees with wrangler's: check what is uploaded)",
        misplacedPackages(size).length > 0
          ? ` (bundles ${misplacedPackages(size).join(", ")})`
          : "",
        stripeWithoutFactory(size) ? " (reads Stripe without its factory)" : "",
      ].join(" "),
    );
  }
  return lines.join("\n");
}

if (process.argv[1] && basename(process.argv[1]) === basename(fileURLToPath(import.meta.url))) {
  const { sizes } = await measureWorkerSizes();
  console.log(formatWorkerSizes(sizes));
  const over = sizes.filter(overLimit);
  const disagreeing = sizes.filter((size) => !checkAgrees(size));
  if (over.length > 0) {
    console.error(
      `over ${WORKER_GZIP_LIMIT_KIB} KiB gzipped: ${over.map((size) => size.env).join(", ")}`,
    );
  }
  if (disagreeing.length > 0) {
    console.error(`size check disagrees: ${disagreeing.map((size) => size.env).join(", ")}`);
  }
  const misplaced = sizes.filter((size) => misplacedPackages(size).length > 0);
  for (const size of misplaced) {
    console.error(`${size.env} bundles ${misplacedPackages(size).join(", ")}: see HEAVY_PACKAGES`);
  }
  const stripeless = sizes.filter(stripeWithoutFactory);
  for (const size of stripeless) {
    console.error(
      `${size.env} reads the Stripe provider (${size.stripeReaders.join(", ")}) but functions/${size.env}.ts does not pass { stripe: createStripeProvider }`,
    );
  }
  process.exitCode =
    over.length + disagreeing.length + misplaced.length + stripeless.length > 0 ? 1 : 0;
}
