/**
 * fontkit 2 ships no types. Only what pdf-fontkit.ts uses: pdf-lib's own description of a
 * fontkit font, except that a 2.x subset is encoded with `encode()` (1.x had `encodeStream()`).
 */
declare module "fontkit" {
  import type { Font, Glyph } from "pdf-lib/cjs/types/fontkit";

  export interface FontkitSubset {
    includeGlyph(glyph: number | Glyph): number;
    encode(): Uint8Array;
  }
  export type FontkitFont = Omit<Font, "createSubset"> & { createSubset(): FontkitSubset };
  export function create(buffer: Uint8Array, postscriptName?: string): FontkitFont;
}
