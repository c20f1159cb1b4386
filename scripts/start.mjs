// `npm start`: runs the Node server from its bundle (scripts/start-bundle.mjs), rebuilt first
// if any source changed since it was built. `npm run dev` keeps running the sources with tsx.
import { pathToFileURL } from "node:url";
import { ensureStartBundle } from "./start-bundle.mjs";

const { path: bundle } = await ensureStartBundle();
// Source maps make a stack trace name the .ts file and line, as under tsx.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
