import { describe, expect, it } from "vitest";
import { call, type Session } from "../support/client";
import { createTestContext } from "../support/harness";
import { createCompany } from "../support/orgs";
import { packageByCredits, planByCode } from "./payments-helpers";

// Issue #22: billing is the owner's (API.md, Company workspaces: "owner (one; billing, ...)").
// An order changes the organisation's plan or fills its wallet: only the owner places one.

// No PAYMENT_GATEWAY_URL: alipay and wxpay are served by the built-in sandbox gateway.
const ctx = await createTestContext();
const { app } = ctx;
const starter = await packageByCredits(app, 100);
const pro = await planByCode(app, "pro");

const orders = (user: Session) => [
  call(app, "/api/v1/credits/purchase", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { package_id: starter.id, pay_type: "alipay" },
  }),
  call(app, "/api/v1/credits/subscribe", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { plan_id: pro.id, billing_cycle: "monthly", pay_type: "alipay" },
  }),
  call(app, "/api/v1/payments/create-order", {
    token: user.accessToken,
    csrf: user.csrfToken,
    json: { plan: "pro", pay_type: "alipay" },
  }),
];

describe("billing in a company", () => {
  it("refuses an order from an admin, a manager or a member with 403, and creates none", async () => {
    const { admin, manager, member } = await createCompany(ctx);
    for (const user of [admin, manager, member]) {
      for (const answer of await Promise.all(orders(user))) {
        expect(answer.status).toBe(403);
        expect(answer.body.code).toBe("forbidden");
        expect(answer.body.detail).toMatch(/owner/);
      }
      const mine = await call(app, "/api/v1/payments/orders", { token: user.accessToken });
      expect(mine.status).toBe(200);
      expect(mine.body.items).toEqual([]);
    }
  });

  it("lets the owner order, and a member promoted to owner by a transfer", async () => {
    const { owner, admin } = await createCompany(ctx);
    for (const answer of await Promise.all(orders(owner))) expect(answer.status).toBe(201);
    const transfer = await call(app, "/api/v1/org/transfer-ownership", {
      token: owner.accessToken,
      csrf: owner.csrfToken,
      json: { user_id: admin.userId },
    });
    expect(transfer.status).toBe(200);
    const [byNewOwner] = orders(admin);
    expect((await byNewOwner!).status).toBe(201);
    const [byOldOwner] = orders(owner);
    expect((await byOldOwner!).status).toBe(403);
  });
});
