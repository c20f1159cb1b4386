import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses, errorResponses } from "../../http/errors";
import { createRouter } from "../../http/router";
import { BalanceSchema, LedgerPage, LedgerQuery, PackageSchema, PlanSchema } from "./schemas";
import { getBalance, listLedger, listPackages, listPlans } from "./service";

const tags = ["Credits"];
const security = [{ bearerAuth: [] }];
const ok = <T extends z.ZodType>(schema: T, description: string) => ({
  200: { description, content: { "application/json": { schema } } },
});

export const balanceRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/balance",
  tags,
  security,
  summary: "Spendable credits, plan, trial end and what expires when",
  middleware: [requireAuth] as const,
  responses: { ...ok(BalanceSchema, "Balance"), ...authErrorResponses },
});

export const historyRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/history",
  tags,
  security,
  summary: "The caller's ledger, newest first",
  middleware: [requireAuth] as const,
  request: { query: LedgerQuery },
  responses: { ...ok(LedgerPage, "A page of ledger rows"), ...authErrorResponses },
});

export const packagesRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/packages",
  tags,
  summary: "Credit packages on sale",
  responses: { ...ok(z.object({ items: z.array(PackageSchema) }), "Packages"), ...errorResponses },
});

export const plansRoute = createRoute({
  method: "get",
  path: "/api/v1/credits/plans",
  tags,
  summary: "Subscription plans; yearly = round(12 x monthly x (1 - plans.yearly_discount))",
  responses: { ...ok(z.object({ items: z.array(PlanSchema) }), "Plans"), ...errorResponses },
});

export function createCreditRoutes() {
  const router = createRouter();
  router.openapi(balanceRoute, async (c) =>
    c.json(await getBalance(c.get("deps"), c.get("auth").userId), 200),
  );
  router.openapi(historyRoute, async (c) => {
    const query = c.req.valid("query");
    return c.json(await listLedger(c.get("deps"), { ...query, userId: c.get("auth").userId }), 200);
  });
  router.openapi(packagesRoute, async (c) =>
    c.json({ items: await listPackages(c.get("deps")) }, 200),
  );
  router.openapi(plansRoute, async (c) => c.json({ items: await listPlans(c.get("deps")) }, 200));
  return router;
}
