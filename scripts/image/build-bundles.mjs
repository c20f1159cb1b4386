// The image's build step: the server, its document thread and the operator's commands
// (db:migrate, admin:grant, db:backup and db:restore) as esbuild bundles under
// node_modules/.cache/app, so the runtime stage runs them with plain node and ships neither
// src/ nor tsx's compile step.
//
// Each bundle sits three directories below the package root like the server's, so the paths
// they derive from import.meta.url (src/runtime/node/project-root.ts: migrations/, the PGlite
// image) still hold. Then every manifest is sealed: its list of source fingerprints is emptied,
// since the image has no sources to compare and nothing edits them. The bundle's own hash is
// kept, so the document pool (which checks its thread's bundle before starting it) still refuses
// a bundle that is not the one built here, and never tries to rebuild it from missing sources.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DOCUMENT_WORKER, ensureStartBundle } from "../start-bundle.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// A sealed manifest in a working copy would keep `npm start` on a stale bundle after an edit.
if (existsSync(resolve(root, ".git"))) {
  console.error("build-bundles: seals the bundles against their sources; only for the image build");
  process.exit(1);
}

const targets = [
  { entry: "src/runtime/node.ts", bundle: "node_modules/.cache/app/server.mjs" },
  { entry: DOCUMENT_WORKER.entry, bundle: DOCUMENT_WORKER.bundle },
  { entry: "src/runtime/migrate-cli.ts", bundle: "node_modules/.cache/app/migrate.mjs" },
  { entry: "src/runtime/admin-grant.ts", bundle: "node_modules/.cache/app/admin-grant.mjs" },
  { entry: "src/runtime/backup-cli.ts", bundle: "node_modules/.cache/app/backup.mjs" },
];

for (const target of targets) {
  const { path } = await ensureStartBundle({ root, ...target });
  const manifestFile = path.replace(/\.mjs$/, ".inputs.json");
  const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
  await writeFile(manifestFile, `${JSON.stringify({ ...manifest, inputs: {} })}\n`);
  console.log(`bundled ${target.entry} -> ${target.bundle}`);
}
