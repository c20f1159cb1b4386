/** Declarations for start-bundle.mjs (plain JS: `npm start` runs it without tsx). */
export interface StartBundleOptions {
  root: string;
  entry: string;
  /** Relative to root; the inputs list is written beside it (`.inputs.json`). */
  bundle: string;
}

export function ensureStartBundle(
  options?: StartBundleOptions,
): Promise<{ path: string; built: boolean }>;

/** The document pool's thread script (src/runtime/node/document-worker.ts), bundled. */
export const DOCUMENT_WORKER: StartBundleOptions;
