import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * An embedded database's backup is PGlite's `dumpDataDir("gzip")`: a gzipped tar of the cluster
 * directory. Read and checked whole before a restore touches anything, so a wrong file (a
 * pg_dump archive, a truncated copy, anything else) is refused with the directory as it was.
 */

class NotABackupError extends Error {
  constructor(file: string, why: string) {
    super(`${file} is not a backup of the embedded database (${why}); nothing was changed.`);
    this.name = "NotABackupError";
  }
}

/** What a backup holds: its PostgreSQL major version (PG_VERSION) and its member count. */
export interface BackupContents {
  pgVersion: string;
  files: number;
}

/** Checks that `gzipped` is a cluster tarball; throws NotABackupError naming `file` if not. */
export function inspectBackup(file: string, gzipped: Uint8Array): BackupContents {
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped);
  } catch {
    throw new NotABackupError(file, "not gzip, or cut short");
  }
  const found = new Map<string, Buffer>();
  let files = 0;
  // ustar: 512-byte header blocks, each member's data padded to 512; two zero blocks end it.
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    if (header.subarray(257, 262).toString("latin1") !== "ustar") {
      throw new NotABackupError(file, "not a tar archive");
    }
    const field = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || "0", 8);
    if (!Number.isSafeInteger(size) || at + 512 + size > tar.length) {
      throw new NotABackupError(file, "tar archive cut short");
    }
    files++;
    // The cluster's marker files, at its top level: PGlite names members "/PG_VERSION" or
    // "<directory>/PG_VERSION" depending on where the dumped cluster lived.
    const parts = name.split("/").filter((part) => part && part !== ".");
    const marker = parts.slice(-2).join("/");
    if (parts.at(-1) === "PG_VERSION" && parts.length <= 2) {
      found.set("PG_VERSION", tar.subarray(at + 512, at + 512 + size));
    } else if (marker === "global/pg_control" && parts.length <= 3) {
      found.set(marker, tar.subarray(at + 512, at + 512 + size));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  const version = found.get("PG_VERSION")?.toString("latin1").trim();
  if (!version || !/^\d+$/.test(version) || !found.has("global/pg_control")) {
    throw new NotABackupError(file, "no PostgreSQL cluster in the archive");
  }
  return { pgVersion: version, files };
}

/**
 * Writes `data` to `file` whole or not at all: beside it first (owner-only: a backup holds
 * password hashes and sealed provider keys), flushed, then renamed over the name.
 */
export async function writeFileAtomically(file: string, data: Uint8Array): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    const handle = await open(partial, "w", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  // The rename itself survives a power cut once the directory is flushed.
  const directory = await open(dirname(file), "r").catch(() => null);
  await directory
    ?.sync()
    .catch(() => {})
    .finally(() => directory.close());
}
