import { describe, expectTypeOf, it } from "vitest";
import type { customers, exchangeRates, wechatWebhookNonces } from "../../src/db/schema";
import type { DbRow } from "../../src/db/sql";

// Checked by `npm run typecheck` (and trivially run by vitest): raw rows keyed by column name.
describe("DbRow", () => {
  it("keys a raw row by the columns' database names, typed from the schema", () => {
    type Customer = DbRow<typeof customers>;
    expectTypeOf<Customer["contact_name"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Customer["org_id"]>().toEqualTypeOf<string>();
    expectTypeOf<Customer["user_id"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Customer["tags"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Customer["estimated_value"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Customer["created_at"]>().toEqualTypeOf<string>();
    expectTypeOf<Customer["last_contact_at"]>().toEqualTypeOf<string | null>();
    expectTypeOf<DbRow<typeof exchangeRates>["rate"]>().toEqualTypeOf<string>();
    expectTypeOf<DbRow<typeof wechatWebhookNonces>["timestamp"]>().toEqualTypeOf<string>();
    // @ts-expect-error: the TypeScript property name is not a key of the raw row
    expectTypeOf<Customer["contactName"]>().toBeString();
  });
});
