import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_ZIP_LIMITS,
  inflateEntry,
  inspectZip,
  ZipRejectedError,
} from "../../src/lib/zip-guard";

interface Entry {
  name: string;
  data: Uint8Array;
  method?: 0 | 8;
  /** Declared uncompressed size (defaults to the real one). */
  size?: number;
  zip64?: boolean;
}

/** A minimal zip writer (CRC left at 0: the guard does not read it). */
function buildZip(entries: Entry[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const method = e.method ?? 8;
    const size = e.size ?? e.data.length;
    const compressed = e.data;
    const local = new Uint8Array(30 + name.length + compressed.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, method, true);
    lv.setUint32(18, compressed.length, true);
    lv.setUint32(22, Math.min(size, 0xffffffff), true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    local.set(compressed, 30 + name.length);
    const extra = e.zip64 ? 4 + 16 : 0;
    const central = new Uint8Array(46 + name.length + extra);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 45, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, method, true);
    cv.setUint32(20, e.zip64 ? 0xffffffff : compressed.length, true);
    cv.setUint32(24, e.zip64 ? 0xffffffff : size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint16(30, extra, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    if (e.zip64) {
      const x = 46 + name.length;
      cv.setUint16(x, 1, true);
      cv.setUint16(x + 2, 16, true);
      cv.setBigUint64(x + 4, BigInt(size), true);
      cv.setBigUint64(x + 12, BigInt(compressed.length), true);
    }
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const eocd = new Uint8Array(22);
  const ev = new DataView(eocd.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, eocd];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const deflate = (data: Uint8Array) => new Uint8Array(deflateRawSync(data, { level: 9 }));
const text = (s: string) => new TextEncoder().encode(s);

function memory() {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

/** What an upload goes through (src/lib/xlsx-stream.ts): the central directory check, then every
 * entry inflated through inflateEntry, bounded by its declared size. */
async function guardZip(bytes: Uint8Array) {
  const entries = inspectZip(bytes);
  for (const entry of entries) for await (const _chunk of inflateEntry(bytes, entry));
  return entries;
}

async function rejection(bytes: Uint8Array) {
  try {
    await guardZip(bytes);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("zip guard", () => {
  it("accepts a real workbook written by exceljs", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("s");
    ws.addRow(["company", "email"]);
    for (let i = 0; i < 200; i++) ws.addRow([`Company ${i}`, `c${i}@example.com`]);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const entries = await guardZip(bytes);
    expect(entries.map((e) => e.name)).toContain("xl/workbook.xml");
  });

  it("refuses a 200 MB-of-zeros entry (about 1000:1) fast and without inflating it", async () => {
    const zeros = new Uint8Array(200 * 1024 * 1024);
    const bomb = buildZip([
      { name: "[Content_Types].xml", data: deflate(text("<Types/>")) },
      { name: "xl/worksheets/sheet1.xml", data: deflate(zeros), size: zeros.length },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = memory();
    const started = performance.now();
    const error = await rejection(bomb);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(memory() - before).toBeLessThan(100 * 1024 * 1024);
    expect(error).toBeInstanceOf(ZipRejectedError);
    expect((error as Error).message).toMatch(/too large|100:1/);
  });

  it("refuses an entry over 100:1 even under the size cap", () => {
    const zeros = new Uint8Array(5 * 1024 * 1024);
    const zip = buildZip([{ name: "a.xml", data: deflate(zeros), size: zeros.length }]);
    expect(() => inspectZip(zip)).toThrow(/100:1/);
  });

  it("refuses a declared 1 GB entry, also through zip64 sizes", () => {
    const small = deflate(text("x".repeat(1000)));
    expect(() => inspectZip(buildZip([{ name: "a", data: small, size: 1 << 30 }]))).toThrow(
      /too large/,
    );
    const zip64 = buildZip([{ name: "a", data: small, size: 5 * 2 ** 32, zip64: true }]);
    expect(() => inspectZip(zip64)).toThrow(/too large/);
    const fine64 = buildZip([{ name: "a", data: small, size: 1000, zip64: true }]);
    expect(inspectZip(fine64)[0]).toMatchObject({ uncompressedSize: 1000 });
  });

  it("refuses an entry that inflates past the size its header declares", async () => {
    const zeros = new Uint8Array(60 * 1024 * 1024);
    const liar = buildZip([{ name: "a.xml", data: deflate(zeros), size: 50 * 1024 }]);
    // Declared 50 KB from ~60 KB: passes the header checks...
    expect(() => inspectZip(liar)).not.toThrow();
    const before = memory();
    const started = performance.now();
    const error = await rejection(liar);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(memory() - before).toBeLessThan(100 * 1024 * 1024);
    expect((error as Error).message).toMatch(/past its declared size/);
  });

  it("refuses too many entries, too large a total, and what is not a zip", async () => {
    const many = buildZip(
      Array.from({ length: DEFAULT_ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({
        name: `f${i}`,
        data: text("a"),
        method: 0 as const,
      })),
    );
    expect(() => inspectZip(many)).toThrow(/Too many/);
    const big = text("y".repeat(1000));
    const total = buildZip(
      Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, data: big, size: 45 * 1024 * 1024 })),
    );
    expect(() => inspectZip(total, { ...DEFAULT_ZIP_LIMITS, maxRatio: 1e9 })).toThrow(
      /too large when uncompressed/,
    );
    expect(() => inspectZip(text("hello, world"))).toThrow(ZipRejectedError);
    const truncated = buildZip([{ name: "a", data: text("abc"), method: 0 }]).slice(0, 40);
    expect(() => inspectZip(truncated)).toThrow(ZipRejectedError);
  });
});

describe("inflateEntry (the streaming read of one entry)", () => {
  const collect = async (bytes: Uint8Array, name: string) => {
    const entry = inspectZip(bytes, { ...DEFAULT_ZIP_LIMITS, maxRatio: 1e9 }).find(
      (e) => e.name === name,
    )!;
    const chunks: Uint8Array[] = [];
    for await (const chunk of inflateEntry(bytes, entry)) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  };

  it("yields a deflated and a stored entry's bytes, in chunks", async () => {
    const body = "<row>数据</row>".repeat(50_000);
    const bytes = buildZip([
      { name: "a.xml", data: deflate(text(body)), size: text(body).length },
      { name: "b.xml", data: text(body), method: 0 },
    ]);
    expect(await collect(bytes, "a.xml")).toBe(body);
    expect(await collect(bytes, "b.xml")).toBe(body);
  });

  it("refuses an entry that produces more, or less, than its header declares", async () => {
    const body = text("x".repeat(300_000));
    const over = buildZip([{ name: "a.xml", data: deflate(body), size: 1_000 }]);
    await expect(collect(over, "a.xml")).rejects.toThrow(/past its declared size/);
    const under = buildZip([{ name: "a.xml", data: deflate(body), size: 300_001 }]);
    await expect(collect(under, "a.xml")).rejects.toThrow(/does not match its declared size/);
    const corrupt = buildZip([{ name: "a.xml", data: text("not deflate data"), size: 10 }]);
    await expect(collect(corrupt, "a.xml")).rejects.toThrow(ZipRejectedError);
  });

  it("hands out an entry a chunk at a time: a reader that stops early never inflates the rest", async () => {
    // 40 MB of zeros (declared honestly): taking one chunk must not inflate the other 40 MB.
    const zeros = new Uint8Array(40 * 1024 * 1024);
    const bytes = buildZip([{ name: "a.xml", data: deflate(zeros), size: zeros.length }]);
    const entry = inspectZip(bytes, { ...DEFAULT_ZIP_LIMITS, maxRatio: 1e9 })[0]!;
    let produced = 0;
    let full = 0;
    for await (const chunk of inflateEntry(bytes, entry)) {
      produced += chunk.byteLength;
      break;
    }
    for await (const chunk of inflateEntry(bytes, entry)) full += chunk.byteLength;
    expect(full).toBe(zeros.length);
    expect(produced).toBeGreaterThan(0);
    expect(produced).toBeLessThan(zeros.length / 10);
  });
});
