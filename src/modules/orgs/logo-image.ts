/**
 * Reads the structure of a PNG or JPEG logo without an image library: pdf-lib, which embeds it
 * in the documents, is heavy and belongs to the documents Worker only (scripts/worker-sizes.ts
 * HEAVY_PACKAGES), while the settings route runs in the auth and api Workers. A file that passes
 * is one pdf-lib reads (a PNG's chunks intact, not interlaced; a baseline or progressive JPEG);
 * the renderer still prints a document without a logo it cannot embed.
 */
export type LogoRead =
  | { ok: true; type: "image/png" | "image/jpeg"; width: number; height: number }
  | { ok: false; reason: string };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bit depths PNG allows for each colour type. */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

let crcTable: Uint32Array | undefined;
function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const u32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;

/** The IHDR chunk's data at `at`: the size, or why pdf-lib would not read it. */
function pngHeader(bytes: Uint8Array, at: number): LogoRead {
  const width = u32(bytes, at);
  const height = u32(bytes, at + 4);
  const [depth, colour, compression, filter, interlace] = bytes.subarray(at + 8, at + 13);
  if (!width || !height) return { ok: false, reason: "it has no pixels" };
  if (!PNG_DEPTHS[colour!]?.includes(depth!) || compression !== 0 || filter !== 0) {
    return { ok: false, reason: "its header is not a valid PNG header" };
  }
  if (interlace !== 0) return { ok: false, reason: "interlaced PNGs are not supported" };
  return { ok: true, type: "image/png", width, height };
}

function readPng(bytes: Uint8Array): LogoRead {
  let at = 8;
  let header: LogoRead | undefined;
  let idat = false;
  while (at + 12 <= bytes.length) {
    const length = u32(bytes, at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const end = at + 8 + length;
    if (end + 4 > bytes.length)
      return { ok: false, reason: "a chunk runs past the end of the file" };
    if (crc32(bytes, at + 4, end) !== u32(bytes, end)) {
      return { ok: false, reason: `its ${type} chunk is damaged` };
    }
    if (!header) {
      if (type !== "IHDR" || length !== 13) return { ok: false, reason: "it has no header chunk" };
      header = pngHeader(bytes, at + 8);
      if (!header.ok) return header;
    }
    if (type === "IDAT") idat = true;
    if (type === "IEND") return idat ? header : { ok: false, reason: "it has no image data" };
    at = end + 4;
  }
  return { ok: false, reason: "it ends before its last chunk" };
}

/** SOF markers pdf-lib embeds: baseline, extended sequential and progressive Huffman. */
const JPEG_FRAMES = new Set([0xc0, 0xc1, 0xc2]);
/** Other SOF markers: lossless or arithmetic-coded, which PDF viewers do not all read. */
const OTHER_FRAMES = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** A frame header segment of `length` at `at`: the size, or why it cannot be read. */
function jpegFrame(bytes: Uint8Array, at: number, length: number): LogoRead {
  if (length < 8) return { ok: false, reason: "its frame header is damaged" };
  const height = u16(bytes, at + 5);
  const width = u16(bytes, at + 7);
  if (!width || !height) return { ok: false, reason: "it has no pixels" };
  if (![1, 3, 4].includes(bytes[at + 9]!))
    return { ok: false, reason: "its colour space is unknown" };
  return { ok: true, type: "image/jpeg", width, height };
}

/** Markers that stand alone (no length): TEM and the restart markers. */
const standalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);

function readJpeg(bytes: Uint8Array): LogoRead {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return { ok: false, reason: "its markers are damaged" };
    const marker = bytes[at + 1]!;
    if (marker === 0xff || standalone(marker)) {
      at += marker === 0xff ? 1 : 2; // a fill byte, or a marker without a length
      continue;
    }
    // Image data, an end or a bad marker before any frame header.
    if ([0x00, 0xd8, 0xd9, 0xda].includes(marker))
      return { ok: false, reason: "it has no frame header" };
    const length = u16(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) {
      return { ok: false, reason: "a segment runs past the end of the file" };
    }
    if (OTHER_FRAMES.has(marker)) return { ok: false, reason: "its encoding is not supported" };
    if (JPEG_FRAMES.has(marker)) return jpegFrame(bytes, at, length);
    at += 2 + length;
  }
  return { ok: false, reason: "it ends before its frame header" };
}

/** The logo's type and size when it is a PNG or JPEG pdf-lib can embed; why not otherwise. */
export function readLogoImage(bytes: Uint8Array): LogoRead {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return readPng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return readJpeg(bytes);
  return { ok: false, reason: "it is not a PNG or JPEG image" };
}
