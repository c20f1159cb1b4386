import { defineConfig } from "vitest/config";

// HTTP suites run on PGlite always, and again on the real PostgreSQL (and Redis) when CI sets
// DATABASE_URL / REDIS_URL. Unit, provider and end-to-end suites run once.
const dbSuites = ["test/api/**/*.test.ts"];
const withPostgres = Boolean(process.env.DATABASE_URL);
// Every response the HTTP suites receive is checked against the OpenAPI document
// (test/support/contract.ts): an undeclared status, content type or field fails the call.
const contract = { OPENAPI_CONTRACT: process.env.OPENAPI_CONTRACT ?? "strict" };

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: [...dbSuites, "test/e2e/**"],
        },
      },
      {
        extends: true,
        test: { name: "pglite", include: dbSuites, env: { TEST_DB: "pglite", ...contract } },
      },
      ...(withPostgres
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
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
