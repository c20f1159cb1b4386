/**
 * Zip bomb guard for .xlsx uploads: reads the central directory (EOCD, zip64 EOCD, central
 * directory records and their zip64 extra fields) over a Uint8Array and refuses the archive
 * before anything is inflated: too many entries, an entry whose declared uncompressed size is
 * past a cap, a compression ratio over 100:1 (Apache POI's ZipSecureFile default), or a total
 * past a cap. `inflateEntry` then inflates an entry through DecompressionStream and stops as
 * soon as it produces more than it declared, so a lying header cannot get an unbounded inflate
 * past the guard. Pure TS, runs on Workers and Node.
 */

export interface ZipLimits {
  maxEntries: number;
  /** Declared uncompressed size of one entry. */
  maxEntryBytes: number;
  /** Sum of declared uncompressed sizes. */
  maxTotalBytes: number;
  /** Uncompressed / compressed; POI refuses below a 0.01 inflate ratio, i.e. over 100:1. */
  maxRatio: number;
  /** Entries smaller than this are exempt from the ratio check (POI's grace size is 100 KB). */
  ratioGraceBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 1_000,
  maxEntryBytes: 50 * 1024 * 1024,
  maxTotalBytes: 200 * 1024 * 1024,
  maxRatio: 100,
  ratioGraceBytes: 100 * 1024,
};

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

export class ZipRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipRejectedError";
  }
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_EOCD = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

const reject = (message: string): never => {
  throw new ZipRejectedError(message);
};

function u64(view: DataView, offset: number): number {
  const low = view.getUint32(offset, true);
  const high = view.getUint32(offset + 4, true);
  // Anything past 2^53 is far past every cap anyway.
  if (high >= 0x200000) return Number.MAX_SAFE_INTEGER;
  return high * 0x1_0000_0000 + low;
}

/** True when the bytes start with a local file header (what every real zip starts with). */
export function hasZipMagic(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4
  );
}

function findEocd(bytes: Uint8Array, view: DataView): number {
  const stop = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let i = bytes.length - EOCD_SIZE; i >= stop; i--) {
    if (view.getUint32(i, true) === SIG_EOCD) {
      const commentLength = view.getUint16(i + 20, true);
      if (i + EOCD_SIZE + commentLength <= bytes.length) return i;
    }
  }
  return reject("Not a zip archive (no end of central directory)");
}

interface CentralDirectory {
  entryCount: number;
  cdSize: number;
  cdOffset: number;
}

/** Where the central directory is and how many entries it has: the EOCD, or its zip64 record. */
function centralDirectory(bytes: Uint8Array, view: DataView): CentralDirectory {
  const eocd = findEocd(bytes, view);
  const entryCount = view.getUint16(eocd + 10, true);
  const cdSize = view.getUint32(eocd + 12, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0) {
    reject("Multi-disk zip archives are not supported");
  }
  if (entryCount !== 0xffff && cdSize !== 0xffffffff && cdOffset !== 0xffffffff) {
    return { entryCount, cdSize, cdOffset };
  }
  const locator = eocd - 20;
  if (locator < 0 || view.getUint32(locator, true) !== SIG_ZIP64_LOCATOR) {
    reject("Zip64 end of central directory locator missing");
  }
  const record = u64(view, locator + 8);
  if (record + 56 > bytes.length || view.getUint32(record, true) !== SIG_ZIP64_EOCD) {
    reject("Zip64 end of central directory record missing");
  }
  return {
    entryCount: u64(view, record + 32),
    cdSize: u64(view, record + 40),
    cdOffset: u64(view, record + 48),
  };
}

type EntrySizes = Pick<ZipEntry, "compressedSize" | "uncompressedSize" | "localHeaderOffset">;

/**
 * Zip64 extended information: replaces, in order, only the fields of `sizes` whose 32-bit value
 * is 0xFFFFFFFF.
 */
function applyZip64Extra(view: DataView, start: number, length: number, sizes: EntrySizes) {
  for (let e = start; e + 4 <= start + length; ) {
    const id = view.getUint16(e, true);
    const size = view.getUint16(e + 2, true);
    if (id === 0x0001) {
      let field = e + 4;
      const end = field + size;
      const take = () => {
        if (field + 8 > end) reject("Corrupt zip64 extra field");
        const value = u64(view, field);
        field += 8;
        return value;
      };
      if (sizes.uncompressedSize === 0xffffffff) sizes.uncompressedSize = take();
      if (sizes.compressedSize === 0xffffffff) sizes.compressedSize = take();
      if (sizes.localHeaderOffset === 0xffffffff) sizes.localHeaderOffset = take();
      return;
    }
    e += 4 + size;
  }
  reject("Zip64 sizes without a zip64 extra field");
}

/** One entry's method, encryption, declared sizes, ratio and local header offset. */
function checkEntry(entry: ZipEntry, limits: ZipLimits, cdOffset: number): void {
  const { name, method, flags, compressedSize, uncompressedSize } = entry;
  if (method !== 0 && method !== 8) reject(`Unsupported compression method ${method} (${name})`);
  if (flags & 0x1) reject("Encrypted zip entries are not supported");
  if (uncompressedSize > limits.maxEntryBytes) {
    reject(`Zip entry ${name} is too large when uncompressed (${uncompressedSize} bytes)`);
  }
  if (method === 0 && compressedSize !== uncompressedSize) reject(`Corrupt stored entry ${name}`);
  if (
    uncompressedSize > limits.ratioGraceBytes &&
    uncompressedSize > compressedSize * limits.maxRatio
  ) {
    reject(`Zip entry ${name} compresses more than ${limits.maxRatio}:1 (possible zip bomb)`);
  }
  if (entry.localHeaderOffset + 30 > cdOffset) reject("Zip entry offset out of bounds");
}

/**
 * Lists the entries from the central directory and enforces the limits on declared sizes.
 * Throws ZipRejectedError; reads nothing but headers.
 */
export function inspectZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  if (!hasZipMagic(bytes)) reject("Not a zip archive");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { entryCount, cdSize, cdOffset } = centralDirectory(bytes, view);
  if (entryCount > limits.maxEntries) reject(`Too many zip entries (${entryCount})`);
  if (cdOffset + cdSize > bytes.length) reject("Central directory out of bounds");

  const entries: ZipEntry[] = [];
  let total = 0;
  let pos = cdOffset;
  const decoder = new TextDecoder("utf-8");
  for (let n = 0; n < entryCount; n++) {
    if (pos + 46 > bytes.length || view.getUint32(pos, true) !== SIG_CENTRAL) {
      reject("Corrupt central directory");
    }
    const sizes: EntrySizes = {
      compressedSize: view.getUint32(pos + 20, true),
      uncompressedSize: view.getUint32(pos + 24, true),
      localHeaderOffset: view.getUint32(pos + 42, true),
    };
    const nameLength = view.getUint16(pos + 28, true);
    const extraLength = view.getUint16(pos + 30, true);
    const commentLength = view.getUint16(pos + 32, true);
    const nameStart = pos + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > bytes.length) reject("Corrupt central directory");
    const name = decoder.decode(bytes.subarray(nameStart, extraStart));
    if (Object.values(sizes).includes(0xffffffff)) {
      applyZip64Extra(view, extraStart, extraLength, sizes);
    }
    const entry: ZipEntry = {
      name,
      method: view.getUint16(pos + 10, true),
      flags: view.getUint16(pos + 8, true),
      ...sizes,
    };
    checkEntry(entry, limits, cdOffset);
    total += entry.uncompressedSize;
    if (total > limits.maxTotalBytes) reject("Zip archive is too large when uncompressed");
    entries.push(entry);
    pos = next;
  }
  return entries;
}

/** The compressed bytes of an entry, located through its local header. */
export function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== SIG_LOCAL) {
    reject(`Corrupt local header for ${entry.name}`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) reject(`Zip entry ${entry.name} out of bounds`);
  return bytes.subarray(start, end);
}

/**
 * One entry's uncompressed bytes as a stream of chunks (DecompressionStream, so nothing but the
 * chunk in flight is held). Throws ZipRejectedError as soon as the entry produces more than its header declared, or, at its end, less. Breaking out of
 * the loop cancels the inflate, so a reader that stops early never inflates the rest.
 */
export async function* inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
): AsyncGenerator<Uint8Array, void, undefined> {
  const data = entryData(bytes, entry);
  if (entry.method === 0) {
    // Stored: sizes already checked to be equal; hand it out in slices like an inflate would.
    for (let at = 0; at < data.length; at += 64 * 1024) yield data.subarray(at, at + 64 * 1024);
    return;
  }
  const reader = new Blob([data as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream("deflate-raw"))
    .getReader();
  let produced = 0;
  let done = false;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        done = true;
        return reject(`Zip entry ${entry.name} is corrupt`);
      }
      if (chunk.done) break;
      produced += chunk.value.byteLength;
      if (produced > entry.uncompressedSize) {
        reject(`Zip entry ${entry.name} inflates past its declared size (possible zip bomb)`);
      }
      yield chunk.value;
    }
    done = true;
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
  }
  if (produced !== entry.uncompressedSize) {
    reject(`Zip entry ${entry.name} does not match its declared size`);
  }
}
