import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// HTTP suites run on PGlite always, and again on the real PostgreSQL (and Redis) when CI sets
// DATABASE_URL / REDIS_URL. Unit, provider and end-to-end suites run once.
const dbSuites = ["test/api/**/*.test.ts"];
const withPostgres = Boolean(process.env.DATABASE_URL);
// Every response the HTTP suites receive is checked against the OpenAPI document
// (test/support/contract.ts): an undeclared status, content type or field fails the call.
const contract = { OPENAPI_CONTRACT: process.env.OPENAPI_CONTRACT ?? "strict" };
// Unit and HTTP files share their worker's process and loaded modules (isolate: false): most of a
// file's time went to importing the dependencies again in a fresh process (388 s of a 14-minute
// run). test/support/file-isolation.ts gives back what a file changed (env, timers, stubs).
// The end-to-end files stay isolated: they start servers, kill processes and hold the data dir.
// docs/adr/0095-faster-typed-test-loop.md. `npm run test:fast` runs only these shared projects.
const shared = {
  isolate: false,
  setupFiles: ["test/support/file-isolation.ts"],
  unstubEnvs: true,
  unstubGlobals: true,
};

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    // Vitest's default is one worker fewer than the cores: on the 2-core machines here that is
    // one file at a time while the other core mostly waits. The figures are in ADR 0095.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          ...shared,
          include: ["test/**/*.test.ts"],
          exclude: [...dbSuites, "test/e2e/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "pglite",
          ...shared,
          include: dbSuites,
          env: { TEST_DB: "pglite", ...contract },
        },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                ...shared,
                include: dbSuites,
                env: { TEST_DB: "postgres", ...contract },
              },
            },
          ]
        : []),
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], fileParallelism: false },
      },
    ],
  },
});
