import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { NO_TRANSACTION_MARKER } from "../../src/db/migrate";
import { PROJECT_ROOT } from "../../src/runtime/node/project-root";

/**
 * scripts/lint-migrations.sh (ADR 0120) on a migrations folder made here: a migration after the
 * recorded release that would lock a busy table fails it; the safe form of the same change passes;
 * a bad migration from before the release is history and is not linted.
 */

const run = promisify(execFile);
const script = join(PROJECT_ROOT, "scripts/lint-migrations.sh");
const BREAK = ";\n--> statement-breakpoint\n";
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** A folder whose release ended at 0001 (itself a locking migration), plus `latest` as 0002. */
async function lint(latest: string): Promise<{ code: number; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), "ta-lint-migrations-"));
  dirs.push(dir);
  await writeFile(
    join(dir, "releases.json"),
    JSON.stringify({ releases: [{ version: "v1.0.0", lastMigration: "0001_old" }] }),
  );
  await writeFile(
    join(dir, "0000_init.sql"),
    `create table "customers" ("id" serial primary key, "name" text)`,
  );
  await writeFile(
    join(dir, "0001_old.sql"),
    `create index "customers_name_idx" on "customers" ("name")`,
  );
  await writeFile(join(dir, "0002_latest.sql"), `${latest};\n`);
  try {
    const { stdout, stderr } = await run("bash", [script, dir], { cwd: PROJECT_ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe("lint-migrations", () => {
  it.each([
    [
      "a NOT NULL column without a default",
      `alter table "customers" add column "region" text not null`,
      "adding-required-field",
    ],
    [
      "an index built inside the transaction",
      `create index "customers_id_name_idx" on "customers" ("id", "name")`,
      "require-concurrent-index-creation",
    ],
    [
      "a column's type changed",
      `alter table "customers" alter column "name" type varchar(80)`,
      "changing-column-type",
    ],
    [
      "a foreign key validated as it is added",
      `alter table "customers" add column "owner_id" integer${BREAK}alter table "customers" add constraint "customers_owner_fk" foreign key ("owner_id") references "customers" ("id")`,
      "adding-foreign-key-constraint",
    ],
    [
      "a concurrent index in a transactional migration (it would fail when run)",
      `create index concurrently if not exists "customers_id_name_idx" on "customers" ("id", "name")`,
      "ban-concurrent-index-creation-in-transaction",
    ],
    [
      "a no-transaction statement that is not idempotent",
      `${NO_TRANSACTION_MARKER}\ncreate index concurrently "customers_id_name_idx" on "customers" ("id", "name")`,
      "prefer-robust-stmts",
    ],
  ])("fails %s", async (_name, latest, rule) => {
    const result = await lint(latest);
    expect(result.code).toBe(1);
    expect(result.output).toContain(rule);
    expect(result.output).toContain("0002_latest.sql");
    // The release's own locking index (0001) is history.
    expect(result.output).not.toContain("0001_old.sql");
  });

  it.each([
    [
      "a nullable column, a column with a default, a new table",
      `alter table "customers" add column "region" text${BREAK}alter table "customers" add column "tier" text default 'basic' not null${BREAK}create table "regions" ("id" serial primary key, "name" varchar(40), "at" timestamp)`,
    ],
    [
      "a foreign key added NOT VALID",
      `alter table "customers" add column "owner_id" integer${BREAK}alter table "customers" add constraint "customers_owner_fk" foreign key ("owner_id") references "customers" ("id") not valid`,
    ],
    [
      "an index built concurrently in a no-transaction migration",
      `${NO_TRANSACTION_MARKER}\ncreate index concurrently if not exists "customers_id_name_idx" on "customers" ("id", "name")${BREAK}create unique index concurrently if not exists "customers_name_key" on "customers" ("name")`,
    ],
  ])("passes %s", async (_name, latest) => {
    const result = await lint(latest);
    expect(result.output).toContain("1 migration(s) since v1.0.0 (0001_old) pass");
    expect(result.code).toBe(0);
  });

  it("passes on the repository's own migrations since the last release", async () => {
    const { stdout } = await run("bash", [script], { cwd: PROJECT_ROOT });
    expect(stdout).toMatch(/migration\(s\) since v\d+\.\d+\.\d+ \(\d{4}_\w+\) pass/);
  });
});
