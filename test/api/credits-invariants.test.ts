import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import {
  adjustCredits,
  type Charge,
  CREDIT_OPERATIONS,
  chargeCredits,
  expireDueCredits,
  grantCredits,
  listPackages,
  refundCharge,
} from "../../src/modules/credits/service";
import {
  createOrder,
  type OrderResponse,
  recordPaymentEvent,
} from "../../src/modules/payments/service/orders";
import { appWithBillableRoute } from "../support/billable";
import { call, registerUser } from "../support/client";
import { createTestContext, onPostgres } from "../support/harness";

const ctx = await createTestContext();
const { app, deps } = ctx;

async function state(userId: string) {
  const [row] = await queryRows<{
    balance: number;
    ledger: number;
    lots: number;
    negative_lots: number;
  }>(
    deps.db,
    sql`select (select balance from user_credits where user_id = ${userId}) as balance,
          (select coalesce(sum(delta), 0)::int from credit_ledger where user_id = ${userId}) as ledger,
          (select coalesce(sum(remaining), 0)::int from credit_lots where user_id = ${userId}) as lots,
          (select count(*)::int from credit_lots where user_id = ${userId} and remaining < 0) as negative_lots`,
  );
  return row!;
}

// On PostgreSQL these requests race over a pool of 20 connections; on PGlite (one connection)
// they interleave between statements and their transactions serialize. Both must keep the
// invariants, so the suite runs on both.
describe("concurrency", () => {
  it("100 parallel charges on a balance that covers 10 leave exactly 10 successes", async () => {
    const user = await registerUser(app);
    const admin = await registerUser(app);
    await adjustCredits(deps, {
      userId: user.userId,
      delta: -10,
      actorId: admin.userId,
      reason: "test setup",
    });
    expect((await state(user.userId)).balance).toBe(20);
    const billable = appWithBillableRoute(deps);
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(billable, "/test/billable", { json: {}, token: user.accessToken }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(90);
    const [rows] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_ledger where user_id = ${user.userId} and kind = 'consumption'`,
    );
    expect(rows!.n).toBe(10);
    expect(await state(user.userId)).toEqual({ balance: 0, ledger: 0, lots: 0, negative_lots: 0 });
  });

  it("parallel charges, refunds and grants keep the balance equal to the ledger", async () => {
    const user = await registerUser(app);
    const charges: Charge[] = await Promise.all(
      Array.from({ length: 10 }, () =>
        chargeCredits(deps, { userId: user.userId, operation: "quotation_from_inquiry" }),
      ),
    );
    await Promise.all([
      ...charges.flatMap((c) => [refundCharge(deps, c, "a"), refundCharge(deps, c, "b")]),
      ...Array.from({ length: 10 }, (_, i) =>
        grantCredits(deps, {
          userId: user.userId,
          amount: 5,
          kind: "purchase",
          sourceType: "order",
          sourceId: `o-${user.userId}-${i % 5}`,
        }),
      ),
      ...Array.from({ length: 10 }, () =>
        chargeCredits(deps, { userId: user.userId, operation: "quotation_from_inquiry" }).catch(
          () => null,
        ),
      ),
    ]);
    const s = await state(user.userId);
    expect(s.balance).toBe(s.ledger);
    expect(s.balance).toBe(s.lots);
    const [refunds] = await queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from credit_ledger where user_id = ${user.userId} and kind = 'refund'`,
    );
    expect(refunds!.n).toBe(10);
  });
});

type Command =
  | { kind: "charge"; operation: (typeof CREDIT_OPERATIONS)[number] }
  | { kind: "refund"; index: number }
  | { kind: "grant"; amount: number; expiresInMinutes: number | null; source: number }
  | { kind: "advance"; minutes: number }
  | { kind: "adjust"; delta: number }
  | { kind: "order"; packageIndex: number; plan: boolean }
  | { kind: "callback"; index: number; eventIndex: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant("charge" as const),
    operation: fc.constantFrom(...CREDIT_OPERATIONS),
  }),
  fc.record({ kind: fc.constant("refund" as const), index: fc.nat(20) }),
  fc.record({
    kind: fc.constant("grant" as const),
    amount: fc.integer({ min: 1, max: 40 }),
    expiresInMinutes: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null }),
    source: fc.nat(6),
  }),
  fc.record({ kind: fc.constant("advance" as const), minutes: fc.integer({ min: 1, max: 90 }) }),
  fc.record({
    kind: fc.constant("adjust" as const),
    delta: fc.integer({ min: -20, max: 20 }).filter((n) => n !== 0),
  }),
);

describe("ledger invariants under random operations", () => {
  it("balance = ledger sum = open lots, never below zero, after every step", async () => {
    const admin = await registerUser(app);
    const packages = await listPackages(deps);
    await fc.assert(
      fc.asyncProperty(fc.array(commandArb, { minLength: 5, maxLength: 25 }), async (commands) => {
        const user = await registerUser(app);
        let now = Date.now();
        const stepDeps = { ...deps, clock: { now: () => new Date(now) } };
        const charges: Charge[] = [];
        const orders: OrderResponse[] = [];
        for (const command of commands) {
          if (command.kind === "charge") {
            const result = await chargeCredits(stepDeps, {
              userId: user.userId,
              operation: command.operation,
            }).catch((error) => {
              if (error?.status !== 402) throw error;
              return null;
            });
            if (result) charges.push(result);
          } else if (command.kind === "refund") {
            const target = charges[command.index % Math.max(1, charges.length)];
            if (target) await refundCharge(stepDeps, target, "property test");
          } else if (command.kind === "grant") {
            await grantCredits(stepDeps, {
              userId: user.userId,
              amount: command.amount,
              kind: command.expiresInMinutes === null ? "purchase" : "plan_allowance",
              sourceType: "order",
              sourceId: `${user.userId}-${command.source}`,
              expiresAt:
                command.expiresInMinutes === null
                  ? null
                  : new Date(now + command.expiresInMinutes * 60_000),
            });
          } else if (command.kind === "advance") {
            now += command.minutes * 60_000;
            await expireDueCredits(stepDeps);
          } else if (command.kind === "order") {
            orders.push(
              await createOrder(stepDeps, {
                userId: user.userId,
                item: command.plan
                  ? { kind: "subscription", planCode: "pro", billingCycle: "monthly" }
                  : {
                      kind: "credits",
                      packageId: packages[command.packageIndex % packages.length]!.id,
                    },
                payType: "alipay",
              }),
            );
          } else if (command.kind === "callback") {
            const order = orders[command.index % Math.max(1, orders.length)];
            if (order) {
              await recordPaymentEvent(stepDeps, {
                provider: "sandbox",
                eventId: `${order.order_no}-${command.eventIndex}`,
                type: "payment.succeeded",
                orderNo: order.order_no,
                payload: {},
                payment: {
                  tradeNo: null,
                  amount: order.amount,
                  currency: order.currency,
                  paidAt: new Date(now),
                },
              });
            }
          } else {
            await adjustCredits(stepDeps, {
              userId: user.userId,
              delta: command.delta,
              actorId: admin.userId,
              reason: "property test",
            }).catch((error) => {
              if (error?.status !== 402) throw error;
            });
          }
          const s = await state(user.userId);
          expect(s.balance).toBeGreaterThanOrEqual(0);
          expect(s.negative_lots).toBe(0);
          expect(s.balance).toBe(s.ledger);
          expect(s.balance).toBe(s.lots);
        }
        // However many deliveries, each paid order granted its package once.
        const [paid] = await queryRows<{ orders: number; grants: number }>(
          deps.db,
          sql`select (select count(*)::int from payment_transactions
                      where user_id = ${user.userId} and kind = 'credits' and status = 'paid') as orders,
                     (select count(*)::int from credit_ledger l
                      join payment_transactions t on t.order_no = l.source_id
                      where l.user_id = ${user.userId} and l.kind = 'purchase') as grants`,
        );
        expect(paid!.grants).toBe(paid!.orders);
      }),
      { seed: 20261122, numRuns: onPostgres ? 25 : 10 },
    );
  });
});
