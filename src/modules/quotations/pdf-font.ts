/**
 * The CJK font port of the PDF export.
 *
 * pdf-lib renders on any runtime, but the font is 10 MB of TrueType shipped by the npm package
 * @expo-google-fonts/noto-sans-sc, and a `.ttf` import resolves only inside a bundle that has a
 * rule for it (wrangler `type = "Data"`), never in Node or vitest. So the bytes come through
 * this port: Node registers src/runtime/node/cjk-font.ts (reads the package's file once);
 * a Worker registers `fetchedCjkFont(PDF_FONT_URL)`: 10 MB of font would take most of a
 * Worker's compressed size limit, so it is served from storage the operator controls (an R2
 * bucket's public URL, static assets) and fetched once per isolate. Until a runtime registers a
 * source, the PDF export answers 503 and says so.
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

/** Larger than any CJK font worth embedding (Noto Sans SC is 10.5 MB); a bound on memory. */
export const MAX_FONT_BYTES = 32 * 1024 * 1024;

/** TrueType (0x00010000, "true"), OpenType CFF ("OTTO") or a collection ("ttcf"). */
function isFont(bytes: Uint8Array): boolean {
  if (bytes.length < 12) return false;
  const tag = String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!);
  return (
    (bytes[0] === 0 && bytes[1] === 1 && bytes[2] === 0 && bytes[3] === 0) ||
    tag === "true" ||
    tag === "OTTO" ||
    tag === "ttcf"
  );
}

export class FontUnavailableError extends Error {
  constructor(reason: string) {
    super(`PDF font unavailable: ${reason}`);
    this.name = "FontUnavailableError";
  }
}

/**
 * A font source that downloads the font from an operator-set URL (PDF_FONT_URL): 200 only, at
 * most MAX_FONT_BYTES (read with a running count, whatever Content-Length says), and the bytes
 * must start like a font, so an HTML error page is never embedded. A failure is not cached:
 * loadCjkFont forgets it and the next export tries again. Pass `deps.fetch` as `fetch` so the
 * outbound policy (lib/outbound.ts: https, no private hosts, same-origin redirects) applies.
 */
export function fetchedCjkFont(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): CjkFontSource {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  return async () => {
    const res = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel().catch(() => {});
      throw new FontUnavailableError(`HTTP ${res.status}`);
    }
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > MAX_FONT_BYTES) {
      await res.body.cancel().catch(() => {});
      throw new FontUnavailableError("too large");
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_FONT_BYTES) {
        await reader.cancel().catch(() => {});
        throw new FontUnavailableError("too large");
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    if (!isFont(bytes)) throw new FontUnavailableError("not a TrueType or OpenType font");
    return bytes;
  };
}
