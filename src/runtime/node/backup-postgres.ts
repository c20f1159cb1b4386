import { spawn } from "node:child_process";
import { open, rename, rm } from "node:fs/promises";

/**
 * `db:backup` / `db:restore` on PostgreSQL (DATABASE_URL): PostgreSQL's own tools, which take a
 * consistent snapshot of a live database (one repeatable-read transaction) and restore it in
 * dependency order. The client binaries must be of the server's major version or newer.
 */

/**
 * The connection for a client tool: the URL without its password (a command line is visible to
 * every user of the machine in `ps`), the password in PGPASSWORD.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return {
    dbname: `--dbname=${parsed.href}`,
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/** Runs a PostgreSQL client tool; resolves with its stderr, rejects with it on failure. */
function run(command: string, args: string[], env = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.once("error", (error) =>
      reject(new Error(`${command} could not run (${error.message}); install PostgreSQL's client`)),
    );
    child.once("exit", (code) =>
      code === 0 ? resolve(stderr) : reject(new Error(`${command} failed: ${stderr.trim()}`)),
    );
  });
}

/** `pg_dump -Fc` to FILE, written beside it and renamed, so FILE is whole or untouched. */
export async function backupPostgres(url: string, file: string): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    // Created owner-only before pg_dump writes into it: a dump holds password hashes.
    await (await open(partial, "w", 0o600)).close();
    const { dbname, env } = connection(url);
    await run("pg_dump", ["--format=custom", `--file=${partial}`, dbname], env);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * `pg_restore` of FILE into DATABASE_URL, in one transaction: the objects the dump holds are
 * dropped first if they exist (a database the app used, or an empty one), and a failure leaves
 * the database as it was. A file that is not a pg_dump archive is refused before anything runs.
 */
export async function restorePostgres(url: string, file: string): Promise<void> {
  try {
    await run("pg_restore", ["--list", file]);
  } catch (error) {
    throw new Error(
      `${file} is not a pg_dump archive (custom format); nothing was changed. ${String(error)}`,
    );
  }
  const { dbname, env } = connection(url);
  await run(
    "pg_restore",
    [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--exit-on-error",
      "--single-transaction",
      dbname,
      file,
    ],
    env,
  );
}
