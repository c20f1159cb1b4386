import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suiteDatabase } from "./workerd";

/**
 * Where a spawned server of one suite keeps its data: a database of its own on PostgreSQL, a new
 * DATA_DIR on the embedded database. `env` goes into the server's environment; `drop` removes it.
 */
export async function serverStore(
  kind: "pglite" | "postgres",
  prefix: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (kind === "postgres") {
    const database = await suiteDatabase(prefix);
    return { env: { DATABASE_URL: database.url }, drop: database.drop };
  }
  const dataDir = await mkdtemp(join(tmpdir(), `ta-${prefix.replaceAll("_", "-")}-`));
  return { env: { DATA_DIR: dataDir }, drop: () => rm(dataDir, { recursive: true, force: true }) };
}
