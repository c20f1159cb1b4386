// The served OpenAPI document's paths and operations as TypeScript types, for the typed test
// client (test/support/client.ts `api()`). One generated file serves both the frontends' client
// check and the tests: tools/openapi-client/schema.d.ts, made by openapi-typescript from the
// document `scripts/openapi-doc.ts` prints. Regenerate with `npm run openapi:test-types` (the
// same as `npm run openapi:client`); test/contract/openapi-client.test.ts fails when the committed
// file no longer matches the document, so a schema change without regenerated types fails CI, and
// a regenerated file that changes a field fails `npm run typecheck` in the tests that use it.
export type { paths } from "../../tools/openapi-client/schema";
