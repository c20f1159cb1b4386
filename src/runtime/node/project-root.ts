import { fileURLToPath } from "node:url";

/**
 * The package's root directory. This file sits three levels below it, and so does the start
 * bundle (node_modules/.cache/app/server.mjs, scripts/build-start-bundle.ts), so the same
 * relative URL is right whether this module runs from source or bundled.
 */
export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** The drizzle migrations, read from disk (Workers never migrate; deploys run db:migrate). */
export const MIGRATIONS_FOLDER = `${PROJECT_ROOT}migrations`;
