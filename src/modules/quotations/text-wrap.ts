/**
 * Line breaking for the quotation PDF, linear in the text it is given.
 *
 * The first version measured the whole candidate line with the font after every token and, for a
 * word wider than the column, re-measured the word once per character it trimmed: cubic in the
 * word's length (a 1,200-character description without a space took 24 s and held the event
 * loop). Here every character is measured once (its advance width, cached per font and size),
 * a line's width is the running sum of its tokens' widths, and a word wider than the column is
 * cut by a binary search over the prefix sums of its characters' widths.
 */

/** Width of one character (one code point) at the size being laid out. */
export type Advance = (char: string) => number;

/** Words, runs of spaces and single CJK characters: the units a line may break between. */
const TOKEN =
  /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]|\s+|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+/g;

/** The sum of a run's character widths. */
function runWidth(run: string, advance: Advance): number {
  let total = 0;
  for (const char of run) total += advance(char);
  return total;
}

/**
 * Cuts `word` (wider than `width`) into pieces that fit, each as long as it can be, and returns
 * them with the last piece, which fits and stays open for the tokens that follow. A piece holds at
 * least one character, so a single character wider than the column is a line of its own.
 */
function cutWord(
  word: string,
  advance: Advance,
  width: number,
): { pieces: string[]; rest: string; restWidth: number } {
  // prefix[i]: the width of the first i characters; offset[i]: where character i starts.
  const prefix = [0];
  const offset = [0];
  let total = 0;
  let at = 0;
  for (const char of word) {
    total += advance(char);
    at += char.length;
    prefix.push(total);
    offset.push(at);
  }
  const count = prefix.length - 1;
  const pieces: string[] = [];
  let start = 0;
  while (prefix[count]! - prefix[start]! > width && count - start > 1) {
    // The last end in (start, count) whose piece still fits; at least start + 1.
    let low = start + 1;
    let high = count - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (prefix[mid]! - prefix[start]! <= width) low = mid;
      else high = mid - 1;
    }
    pieces.push(word.slice(offset[start], offset[low]));
    start = low;
  }
  return {
    pieces,
    rest: word.slice(offset[start]),
    restWidth: prefix[count]! - prefix[start]!,
  };
}

/**
 * Breaks text into lines no wider than `width`: at spaces for Latin text, anywhere for CJK, inside
 * a word only when the word alone is wider than the column. Line breaks in the text are kept.
 */
export function wrapText(text: string, advance: Advance, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = "";
    let lineWidth = 0;
    for (const token of paragraph.match(TOKEN) ?? [""]) {
      const tokenWidth = runWidth(token, advance);
      if (line === "" || lineWidth + tokenWidth <= width) {
        line += token;
        lineWidth += tokenWidth;
      } else {
        lines.push(line.trimEnd());
        // The space a line breaks at is dropped; a word starts the next line.
        const isSpace = token.trimStart() === "";
        line = isSpace ? "" : token;
        lineWidth = isSpace ? 0 : tokenWidth;
      }
      if (lineWidth > width) {
        // Only a token that opened the line can be wider than the column on its own.
        const { pieces, rest, restWidth } = cutWord(line, advance, width);
        lines.push(...pieces);
        line = rest;
        lineWidth = restWidth;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}

/** Per-character widths of a font at 1 pt, measured once per character and kept with the font. */
const unitWidths = new WeakMap<object, Map<string, number>>();

/** An Advance for `font` at `size`: each character measured once, then read from the cache. */
export function fontAdvance(
  font: { widthOfTextAtSize(text: string, size: number): number },
  size: number,
): Advance {
  let widths = unitWidths.get(font);
  if (!widths) {
    widths = new Map();
    unitWidths.set(font, widths);
  }
  const cache = widths;
  return (char) => {
    let unit = cache.get(char);
    if (unit === undefined) {
      // Measured at 1000 pt: the font's own units, so scaling down loses nothing.
      unit = font.widthOfTextAtSize(char, 1000) / 1000;
      cache.set(char, unit);
    }
    return unit * size;
  };
}
