import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateDatabase } from "../../src/db/migrate";
import { migratePostgres, openPgliteDatabase } from "../../src/runtime/node/database";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/** Migrate once per run: a PGlite dump every file loads, and a Postgres template database. */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), "ta-test-"));
  const database = await openPgliteDatabase("memory://");
  await migrateDatabase(database);
  const client = (database.db as unknown as { $client: { dumpDataDir(c: string): Promise<Blob> } })
    .$client;
  const dump = await client.dumpDataDir("gzip");
  const dumpPath = join(dir, "template.tar.gz");
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteTemplate", dumpPath);

  let templateName = "";
  const url = process.env.DATABASE_URL;
  if (url) {
    templateName = `ta_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${templateName}`);
    await admin.query(`create database ${templateName}`);
    await admin.end();
    await migratePostgres(withDatabase(url, templateName));
  }
  project.provide("postgresTemplate", templateName);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (url && templateName) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    }
  };
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
