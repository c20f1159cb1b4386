/**
 * The CJK font port of the PDF export.
 *
 * pdf-lib renders on any runtime, but the font is 10 MB of TrueType shipped by the npm package
 * @expo-google-fonts/noto-sans-sc, and a `.ttf` import resolves only inside a bundle that has a
 * rule for it (wrangler `type = "Data"`), never in Node or vitest. So the bytes come through
 * this port: Node registers src/runtime/node/cjk-font.ts (reads the package's file once);
 * a Worker registers the imported Data module. Until a runtime registers a source, the PDF
 * export answers 503 and says so.
 */
export type CjkFontSource = () => Promise<Uint8Array>;

let source: CjkFontSource | undefined;
let cached: Promise<Uint8Array> | undefined;

/** Called once by the runtime entry (or a test) before serving. */
export function provideCjkFont(next: CjkFontSource | undefined): void {
  source = next;
  cached = undefined;
}

/** The font bytes, read once per process; undefined when no runtime provided a source. */
export function loadCjkFont(): Promise<Uint8Array> | undefined {
  if (!source) return undefined;
  cached ??= source().catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
