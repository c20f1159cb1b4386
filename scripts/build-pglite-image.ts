// Builds the migrated PGlite image that a fresh `npm start` loads (src/runtime/node/pglite-image.ts).
// Run as the postinstall step: a failure here must not fail the install (the server then runs
// initdb on its first start, as before), so it reports and exits 0.
import { pgliteImage } from "../src/runtime/node/pglite-image";

try {
  const started = Date.now();
  const path = await pgliteImage();
  console.log(`pglite image ready in ${Date.now() - started} ms: ${path}`);
} catch (error) {
  console.warn(`pglite image not built (npm start will run initdb instead): ${String(error)}`);
}
