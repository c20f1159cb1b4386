import { describe, expect, it } from "vitest";
import { api, call, expectStatus } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany } from "../support/orgs";

// Review of issue #22: nobody changes the owner's row (PATCH /org/members refuses it, ADR 0100),
// so a monthly credit limit the new owner had as a member would stay on them for good.

const ctx = await createTestContext();
const { app } = ctx;
const typed = api(app);

describe("transfer-ownership", () => {
  it("the new owner keeps no monthly credit limit from their member days", async () => {
    const { owner, member } = await createCompany(ctx);
    const limited = await typed.patch("/api/v1/org/members/{user_id}", {
      token: owner.accessToken,
      csrf: owner.csrfToken,
      params: { user_id: member.userId },
      json: { monthly_credit_limit: 10 },
    });
    expectStatus(limited, 200);
    const transfer = await call(app, "/api/v1/org/transfer-ownership", {
      token: owner.accessToken,
      csrf: owner.csrfToken,
      json: { user_id: member.userId },
    });
    expect(transfer.status).toBe(200);

    const list = await typed.get("/api/v1/org/members", { token: member.accessToken });
    expectStatus(list, 200);
    const newOwner = list.body.items.find((m) => m.user_id === member.userId);
    expect(newOwner).toMatchObject({ role: "owner", monthly_credit_limit: null });
  });
});
