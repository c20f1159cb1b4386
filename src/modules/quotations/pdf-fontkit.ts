import type { FontkitFont, FontkitSubset } from "fontkit";
import type { Font, Fontkit, Subset, SubsetStream } from "pdf-lib/cjs/types/fontkit";

/**
 * The fontkit pdf-lib embeds fonts with: upstream `fontkit` 2, not `@pdf-lib/fontkit`.
 *
 * `@pdf-lib/fontkit` 1.1.1 (pdf-lib's abandoned fork, the newest there is) writes broken
 * TrueType subsets: a short `loca` without even-length glyph records shifts every later glyph,
 * and composite glyphs lose their components. Text still extracts (the ToUnicode map is fine),
 * but poppler, MuPDF and Ghostscript draw most glyphs blank ("QUOTATION" as "QU  A I N";
 * pdf-lib issue 1232). fontkit 2 fixed both upstream and is pure JS, so it runs on Workers.
 *
 * The one API gap: pdf-lib serialises a subset with 1.x's `encodeStream()`, 2.x has `encode()`.
 */
export async function pdfFontkit(): Promise<Fontkit> {
  const { create } = await import("fontkit");
  return {
    create(bytes, postscriptName) {
      // The runtime hands the same font bytes to every export (pdf-font.ts caches them), so the
      // parsed font, with its cmap and glyph caches, is kept beside them rather than re-read
      // (halves a warm export). Its glyph cache grows with the characters exports have used:
      // a few MB for everyday Chinese, ~35 MB if every one of Noto Sans SC's 30,890 were.
      if (postscriptName !== undefined) return withStreamedSubsets(create(bytes, postscriptName));
      let font = parsed.get(bytes);
      if (!font) {
        font = withStreamedSubsets(create(bytes));
        parsed.set(bytes, font);
      }
      return font;
    },
  };
}

const parsed = new WeakMap<Uint8Array, Font>();

/** pdf-lib reads the subset's `cff` flag too, so the subset is extended, not wrapped. */
function withStreamedSubsets(font: FontkitFont): Font {
  const createSubset = font.createSubset.bind(font);
  return Object.assign(font, {
    createSubset: (): Subset => {
      const subset = createSubset();
      return Object.assign(subset, { encodeStream: () => encodedOnce(subset) });
    },
  });
}

/**
 * The 1.x stream shape pdf-lib listens on: one `data`, then `end`, or `error` (which pdf-lib also
 * listens for, though its type names only the first two).
 */
function encodedOnce(subset: FontkitSubset): SubsetStream {
  const listeners: Record<string, ((value?: unknown) => unknown) | undefined> = {};
  const stream: SubsetStream = {
    on(event, listener) {
      listeners[event] = listener as (value?: unknown) => unknown;
      return stream;
    },
  };
  // pdf-lib attaches its listeners right after this call returns; emit once they are there.
  queueMicrotask(() => {
    let bytes: Uint8Array;
    try {
      bytes = subset.encode();
    } catch (error) {
      listeners.error?.(error);
      return;
    }
    listeners.data?.(bytes);
    listeners.end?.();
  });
  return stream;
}
