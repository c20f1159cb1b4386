import { describe, expect, it } from "vitest";
import { refusesUnknownQuery } from "../../src/http/query";
import { call } from "../support/client";
import { createTestContext } from "../support/harness";
import { registerBusinessUser } from "../support/plans";

/**
 * Only URLs a third party writes (signed callbacks, webhooks, the job queue's deliveries) take
 * query parameters we do not read (ADR 0093). A user-facing path that merely contains `jobs`
 * (the background discovery searches) is held to the contract like every other route.
 */
const ctx = await createTestContext();
const { app, deps } = ctx;

describe("the open-query exemption names the third-party paths only", () => {
  it("GET /api/v1/discovery/jobs/{id} refuses an unknown parameter (422, named)", async () => {
    const seller = await registerBusinessUser(app, deps);
    const res = await call(app, `/api/v1/discovery/jobs/${crypto.randomUUID()}?utm_source=mail`, {
      token: seller.accessToken,
      ip: seller.ip,
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors[0].loc).toEqual(["query", "utm_source"]);
  });

  it("the signed deliveries stay open; the discovery jobs do not", () => {
    expect(refusesUnknownQuery("/api/v1/payments/callback")).toBe(false);
    expect(refusesUnknownQuery("/api/v1/payments/stripe/webhook")).toBe(false);
    expect(refusesUnknownQuery("/api/v1/webhooks/wechat")).toBe(false);
    expect(refusesUnknownQuery("/api/v1/jobs/{name}")).toBe(false);
    expect(refusesUnknownQuery("/api/v1/discovery/jobs")).toBe(true);
    expect(refusesUnknownQuery("/api/v1/discovery/jobs/{id}")).toBe(true);
  });
});
