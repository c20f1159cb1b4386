import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { DocsBundleSource } from "../../http/api-docs";
import { SCALAR_BUNDLE } from "../../http/api-docs";

/**
 * Node's source for the /docs page's script: Scalar's standalone browser bundle as shipped in
 * its npm package, read from node_modules on the first request for it, never at start-up.
 */
export const nodeDocsBundle: DocsBundleSource = () =>
  readFile(createRequire(import.meta.url).resolve(SCALAR_BUNDLE), "utf8");
