// The Node server as one ES module, so `npm start` loads one file instead of compiling and
// resolving ~400 TypeScript modules through tsx (~1 s of a ~2.3 s start). Packages stay
// external: they load from node_modules as usual (PGlite's WASM, argon2's native binding).
//
// The bundle sits three directories below the package root, like src/runtime/node/*.ts, so the
// paths those modules derive from import.meta.url (src/runtime/node/project-root.ts) still hold.
// Beside it, the list of its inputs with their size and mtime: a start whose sources are
// unchanged reuses the bundle (a few ms of stat calls), any edit rebuilds it (~0.1 s).
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SERVER = {
  root: ROOT,
  entry: "src/runtime/node.ts",
  bundle: "node_modules/.cache/app/server.mjs",
};

async function fingerprint(root, path) {
  const info = await stat(join(root, path));
  return `${info.size}:${info.mtimeMs}`;
}

/** Whether the bundle was built from the sources as they are now. */
async function isCurrent(root, bundle, inputsFile) {
  try {
    const inputs = JSON.parse(await readFile(inputsFile, "utf8"));
    await stat(bundle);
    for (const [path, print] of Object.entries(inputs)) {
      if ((await fingerprint(root, path)) !== print) return false;
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
  const inputsFile = bundle.replace(/\.mjs$/, ".inputs.json");
  if (await isCurrent(root, bundle, inputsFile)) return { path: bundle, built: false };
  const { build } = await import("esbuild");
  await mkdir(dirname(bundle), { recursive: true });
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
  for (const path of Object.keys(result.metafile.inputs)) {
    inputs[path] = await fingerprint(root, path);
  }
  // Each file is written aside and renamed, so a server starting beside this build (parallel
  // tests, two terminals) never loads half a bundle; two builds of the same sources are equal.
  const files = [
    ...result.outputFiles.map((file) => [file.path, file.contents]),
    [inputsFile, `${JSON.stringify(inputs)}\n`],
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
    const { path } = await ensureStartBundle();
    console.log(`start bundle ready: ${path}`);
  } catch (error) {
    console.warn(`start bundle not built (npm start will build it): ${String(error)}`);
  }
}
