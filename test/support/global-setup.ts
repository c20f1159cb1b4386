import pg from "pg";
import type { TestProject } from "vitest/node";
import { migratePostgres } from "../../src/runtime/node/database";
import { pgliteImage } from "../../src/runtime/node/pglite-image";
import { fromRelease, upgradedPgliteImage, upgradePostgres } from "../upgrade/release-database";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

/**
 * Migrate once: a PGlite image every file loads (cached across runs by pglite-image.ts), and a
 * Postgres template database for this run.
 *
 * Vitest runs this once for the root project and once more for each project with files, all in
 * this process: the template is made by the first call and dropped by the last teardown.
 */
export default async function setup(project: TestProject) {
  // TEST_FROM_RELEASE: every file starts from the last release's data, upgraded (ADR 0120).
  project.provide("pgliteTemplate", await (fromRelease ? upgradedPgliteImage() : pgliteImage()));

  const shared = globalThis as { [postgresTemplateKey]?: SharedTemplate };
  shared[postgresTemplateKey] ??= { users: 0, name: createPostgresTemplate() };
  const template = shared[postgresTemplateKey];
  template.users += 1;
  const templateName = await template.name;
  project.provide("postgresTemplate", templateName);

  return async () => {
    template.users -= 1;
    if (template.users > 0) return;
    delete shared[postgresTemplateKey];
    const url = process.env.DATABASE_URL;
    if (url && templateName) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    }
  };
}

const postgresTemplateKey = Symbol.for("trade-assistant.test.postgresTemplate");
type SharedTemplate = { users: number; name: Promise<string> };

/** A migrated, seeded database to clone per file; "" when the run has no DATABASE_URL. */
async function createPostgresTemplate(): Promise<string> {
  const url = process.env.DATABASE_URL;
  if (!url) return "";
  const templateName = `ta_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${templateName}`);
  await admin.query(`create database ${templateName}`);
  await admin.end();
  await (fromRelease ? upgradePostgres : migratePostgres)(withDatabase(url, templateName));
  return templateName;
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}
