import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Config } from "../../config";

/** The file under DATA_DIR that names this installation's instance across restarts. */
export const INSTANCE_ID_FILE = "instance-id";

const STORED_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The stored id, or null when the file is absent or not one we wrote. */
async function readStoredId(path: string): Promise<string | null> {
  try {
    const id = (await readFile(path, "utf8")).trim();
    return STORED_ID.test(id) ? id : null;
  } catch {
    return null;
  }
}

/**
 * Creates the file once: written under a private name, then hard-linked to its real name, which
 * fails when another process linked first (two workers starting at once): then theirs is read.
 * A reader never sees a half-written file and no process overwrites another's id.
 */
async function createStoredId(dir: string, path: string): Promise<string | null> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const id = randomBytes(12).toString("base64url");
  const temp = join(dir, `.${INSTANCE_ID_FILE}.${process.pid}.${randomBytes(4).toString("hex")}`);
  await writeFile(temp, `${id}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(temp, path);
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readStoredId(path);
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * The name this server's work carries in the database (holds, in-flight keys, agent runs), so
 * that a restart recovers its own unfinished work at once instead of after the leases
 * (docs/adr/0116-restarts-lose-nothing.md):
 * - INSTANCE_ID when set (the cluster primary hands each worker `<base>-<n>`);
 * - else the id stored in `<DATA_DIR>/instance-id` (created once): a rescheduled container with
 *   its volume is the same instance. On PostgreSQL the port is appended: nothing locks the
 *   directory there (the embedded database's lock makes it one server's), and two servers
 *   sharing one must not recover each other's live work;
 * - else, when DATA_DIR cannot be written, host and port, as before: stable only while the host
 *   name is.
 * Needs no database: the cluster primary calls it before any worker starts.
 */
export async function resolveInstanceId(config: Config): Promise<string | undefined> {
  if (config.INSTANCE_ID) return config.INSTANCE_ID;
  const port = config.PORT > 0 ? `:${config.PORT}` : "";
  const path = join(config.DATA_DIR, INSTANCE_ID_FILE);
  try {
    const id = (await readStoredId(path)) ?? (await createStoredId(config.DATA_DIR, path));
    if (id) return config.DATABASE_URL ? `${id}${port}` : id;
  } catch {
    // A read-only or missing volume: the host name is the best there is.
  }
  return port ? `${hostname()}${port}` : undefined;
}
