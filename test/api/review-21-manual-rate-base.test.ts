import { describe, expect, it } from "vitest";
import { call, registerUser } from "../support/client";
import { createTestContext, registerAdmin } from "../support/harness";

/**
 * A manual rate is crossed through a source's rate for its base (exchange/service.ts pairTerms),
 * never through another manual rate. A base no source covers is refused at the PUT (422
 * no_exchange_rate), not stored as a rate that then never answers.
 */
const ctx = await createTestContext();
const user = await registerUser(ctx.app);
const admin = await registerAdmin(ctx);

const put = (currency: string, json: unknown) =>
  call(ctx.app, `/api/v1/admin/exchange-rates/${currency}`, {
    method: "PUT",
    token: admin.accessToken,
    csrf: admin.csrfToken,
    json,
  });
const convert = (from: string, to: string) =>
  call(ctx.app, `/api/v1/exchange/convert?from=${from}&to=${to}&amount=100`, {
    token: user.accessToken,
  });

describe("PUT /api/v1/admin/exchange-rates/:currency, the base", () => {
  it("refuses a base that only a manual rate covers: 422 no_exchange_rate, nothing stored", async () => {
    expect((await put("AED", { base: "USD", rate: "3.6725" })).status).toBe(200);
    expect((await convert("USD", "AED")).status).toBe(200);

    const res = await put("SAR", { base: "AED", rate: "1.0211" });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("no_exchange_rate");
    expect(res.body.errors[0].loc).toEqual(["body", "base"]);
    // Nothing was stored: SAR still has no rate, and an admin deleting it finds none.
    expect((await convert("USD", "SAR")).body.code).toBe("no_exchange_rate");
    const del = await call(ctx.app, "/api/v1/admin/exchange-rates/SAR", {
      method: "DELETE",
      token: admin.accessToken,
      csrf: admin.csrfToken,
    });
    expect(del.status).toBe(404);
  });
});

describe("a manual rate on a base moves what it anchors", () => {
  it("USD at 2 per EUR keeps AED at 3.6725 per USD (was 2.0112..., crossed through the ECB's USD), dated the manual day", async () => {
    expect((await put("AED", { base: "USD", rate: "3.6725" })).status).toBe(200);
    expect((await convert("USD", "AED")).body.rate).toBe("3.6725");

    expect((await put("USD", { base: "EUR", rate: "2" })).status).toBe(200);
    const usdAed = await convert("USD", "AED");
    expect(usdAed.status).toBe(200);
    expect(usdAed.body).toMatchObject({ rate: "3.6725", source: "manual", age_days: 0 });
    // AED in EUR follows both links: 3.6725 x 2.
    expect((await convert("EUR", "AED")).body.rate).toBe("7.345");
    expect((await convert("AED", "USD")).body.result).toBe("27.23");
  });
});
