// `npm start`: runs the Node server from its bundle (scripts/start-bundle.mjs), rebuilt first
// if any source changed since it was built. `npm run dev` keeps running the sources with tsx.
import { pathToFileURL } from "node:url";
import { DOCUMENT_WORKER, ensureStartBundle } from "./start-bundle.mjs";

// The document threads' script too (ADR 0083), so the first export does not wait for its build.
const [{ path: bundle }] = await Promise.all([
  ensureStartBundle(),
  ensureStartBundle(DOCUMENT_WORKER),
]);
// Source maps make a stack trace name the .ts file and line, as under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
