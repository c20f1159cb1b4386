// The Node server as one ES module, so `npm start` loads one file instead of compiling and
// resolving ~400 TypeScript modules through tsx (~1 s of a ~2.3 s start). Packages stay
// external: they load from node_modules as usual (PGlite's WASM, argon2's native binding).
//
// The bundle sits three directories below the package root, like src/runtime/node/*.ts, so the
// paths those modules derive from import.meta.url (src/runtime/node/project-root.ts) still hold.
// Beside it, a manifest: the bundle's hash and the size and mtime of every input (the sources,
// and what shapes the build: this script, package.json, tsconfig.json). A start whose inputs are
// unchanged reuses the bundle (a few ms of stat calls and one hash), any edit rebuilds it (~0.1 s).
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = {
  root: ROOT,
  entry: "src/runtime/node.ts",
  bundle: "node_modules/.cache/app/server.mjs",
};

/**
 * The document pool's thread (src/runtime/node/document-pool.ts): a bundle of its own beside the
 * server's, so the thread loads one file whether the server runs bundled, under tsx or in vitest
 * (a worker thread does not inherit tsx's loader there). `npm start` builds both.
 */
export const DOCUMENT_WORKER = {
  root: ROOT,
  entry: "src/runtime/node/document-worker.ts",
  bundle: "node_modules/.cache/app/document-worker.mjs",
};

/** Files besides the sources whose change must rebuild the bundle (those that exist). */
const BUILD_FILES = [fileURLToPath(import.meta.url), "package.json", "tsconfig.json"];

async function fingerprint(root, path) {
  const info = await stat(resolve(root, path));
  return { print: `${info.size}:${info.mtimeMs}`, mtimeMs: info.mtimeMs };
}

const sha256 = (contents) => createHash("sha256").update(contents).digest("hex");

/** Whether the bundle on disk is the one the manifest describes, built from the inputs as they are. */
async function isCurrent(root, bundle, manifestFile) {
  try {
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    // Two builds renaming their files at once could pair one's bundle with the other's manifest.
    if (sha256(await readFile(bundle)) !== manifest.bundleSha256) return false;
    for (const [path, print] of Object.entries(manifest.inputs)) {
      if ((await fingerprint(root, path)).print !== print) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Builds the bundle unless it is current; returns its absolute path and whether it was built.
 * `root`, `entry` and `bundle` (relative to root) default to the server's.
 */
export async function ensureStartBundle({ root, entry, bundle: relativeBundle } = SERVER) {
  const bundle = join(root, relativeBundle);
  const manifestFile = bundle.replace(/\.mjs$/, ".inputs.json");
  if (await isCurrent(root, bundle, manifestFile)) return { path: bundle, built: false };
  const { build } = await import("esbuild");
  await mkdir(dirname(bundle), { recursive: true });
  const started = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outfile: bundle,
    sourcemap: "linked",
    metafile: true,
    write: false,
    logLevel: "warning",
  });
  const inputs = {};
  let editedDuringBuild = false;
  const present = [];
  for (const path of BUILD_FILES) {
    if (await stat(resolve(root, path)).catch(() => undefined)) present.push(path);
  }
  for (const path of [...Object.keys(result.metafile.inputs), ...present]) {
    const { print, mtimeMs } = await fingerprint(root, path);
    inputs[path] = print;
    // Saved while esbuild read it: the bundle may hold the older text, so no manifest is
    // written and the next start builds again.
    if (mtimeMs >= started) editedDuringBuild = true;
  }
  const code = result.outputFiles.find((file) => file.path === bundle);
  const manifest = { bundleSha256: sha256(code.contents), inputs };
  // Each file is written aside and renamed, so a server starting beside this build (parallel
  // tests, two terminals) never loads half a bundle; the manifest goes last.
  const files = [
    ...result.outputFiles.map((file) => [file.path, file.contents]),
    ...(editedDuringBuild ? [] : [[manifestFile, `${JSON.stringify(manifest)}\n`]]),
  ];
  for (const [path, contents] of files) {
    const partial = `${path}.${process.pid}.partial`;
    await writeFile(partial, contents);
    await rename(partial, path);
  }
  return { path: bundle, built: true };
}

// `node scripts/start-bundle.mjs` (the postinstall step): build it now so the first start
// only loads it. A failure never fails the install: `npm start` builds it then.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    for (const target of [SERVER, DOCUMENT_WORKER]) {
      const { path } = await ensureStartBundle(target);
      console.log(`start bundle ready: ${path}`);
    }
  } catch (error) {
    console.warn(`start bundle not built (npm start will build it): ${String(error)}`);
  }
}
