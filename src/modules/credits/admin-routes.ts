import { createRoute } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  jsonBody as body,
  adminGuard as guard,
  IdParam,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import {
  adminAdjustCredits,
  adminListPackages,
  adminListPlans,
  createPackage,
  createPlan,
  listConsumptions,
  listCreditUsers,
  retirePackage,
  retirePlan,
  updatePackage,
  updatePlan,
} from "./admin-service";
import {
  AdjustBody,
  AdjustResultSchema,
  AdminPackageList,
  AdminPackageSchema,
  AdminPlanList,
  AdminPlanSchema,
  ConsumptionsPage,
  ConsumptionsQuery,
  CreditUsersPage,
  CreditUsersQuery,
  PackageBody,
  PackagePatch,
  PlanBody,
  PlanPatch,
  UserIdParam,
} from "./schemas";

const tags = ["Admin: credits"];

const creditUsersRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/credit-users",
  tags,
  security,
  summary: "The organisations' wallets with their owners, largest first",
  middleware: [...guard],
  request: { query: CreditUsersQuery },
  responses: { 200: json(CreditUsersPage, "A page of balances"), ...adminErrors },
});

const consumptionsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/credit-consumptions",
  tags,
  security,
  summary: "Deductions, newest first, by user, operation and status",
  middleware: [...guard],
  request: { query: ConsumptionsQuery },
  responses: { 200: json(ConsumptionsPage, "A page of consumptions"), ...adminErrors },
});

const adjustRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/credit-users/{user_id}/adjust",
  tags,
  security,
  summary:
    "Add or remove credits of the user's organisation's wallet with a reason; written to the ledger with the admin's id",
  middleware: [...writeGuard],
  request: { params: UserIdParam, body: body(AdjustBody) },
  responses: {
    200: json(AdjustResultSchema, "New balance"),
    402: errorResponse(ErrorSchema, "The user has fewer credits than the deduction"),
    ...notFoundResponse(),
    ...adminErrors,
  },
});

const listPackagesRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/credit-packages",
  tags,
  security,
  summary: "All credit packages, retired ones included",
  middleware: [...guard],
  responses: {
    200: json(AdminPackageList, "Packages"),
    ...adminErrors,
  },
});

const createPackageRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/credit-packages",
  tags,
  security,
  summary: "Create a credit package",
  middleware: [...writeGuard],
  request: { body: body(PackageBody) },
  responses: { 201: json(AdminPackageSchema, "Created"), ...adminErrors },
});

const updatePackageRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/credit-packages/{id}",
  tags,
  security,
  summary: "Change a credit package",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(PackagePatch) },
  responses: { 200: json(AdminPackageSchema, "Updated"), ...notFoundResponse(), ...adminErrors },
});

const deletePackageRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/credit-packages/{id}",
  tags,
  security,
  summary: "Retire a credit package (orders keep referring to it)",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 200: json(AdminPackageSchema, "Retired"), ...notFoundResponse(), ...adminErrors },
});

const listPlansRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/credit-plans",
  tags,
  security,
  summary: "All subscription plans, retired ones included",
  middleware: [...guard],
  responses: { 200: json(AdminPlanList, "Plans"), ...adminErrors },
});

const createPlanRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/credit-plans",
  tags,
  security,
  summary: "Create a subscription plan",
  middleware: [...writeGuard],
  request: { body: body(PlanBody) },
  responses: {
    201: json(AdminPlanSchema, "Created"),
    409: errorResponse(ErrorSchema, "Code already used"),
    ...adminErrors,
  },
});

const updatePlanRoute = createRoute({
  method: "patch",
  path: "/api/v1/admin/credit-plans/{id}",
  tags,
  security,
  summary: "Change a subscription plan (its code is permanent)",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(PlanPatch) },
  responses: { 200: json(AdminPlanSchema, "Updated"), ...notFoundResponse(), ...adminErrors },
});

const deletePlanRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/credit-plans/{id}",
  tags,
  security,
  summary: "Retire a subscription plan (subscribers keep it until their period ends)",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 200: json(AdminPlanSchema, "Retired"), ...notFoundResponse(), ...adminErrors },
});

export function createCreditAdminRoutes() {
  const router = createRouter();
  router.openapi(creditUsersRoute, async (c) =>
    c.json(await listCreditUsers(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(consumptionsRoute, async (c) =>
    c.json(await listConsumptions(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(adjustRoute, async (c) => {
    const { user_id } = c.req.valid("param");
    const { delta, reason } = c.req.valid("json");
    const result = await adminAdjustCredits(c.get("deps"), actorOf(c), {
      userId: user_id,
      delta,
      reason,
    });
    return c.json({ user_id, balance: result.balance, ledger_id: result.ledgerId }, 200);
  });
  router.openapi(listPackagesRoute, async (c) =>
    c.json({ items: await adminListPackages(c.get("deps")) }, 200),
  );
  router.openapi(createPackageRoute, async (c) =>
    c.json(await createPackage(c.get("deps"), actorOf(c), c.req.valid("json")), 201),
  );
  router.openapi(updatePackageRoute, async (c) =>
    c.json(
      await updatePackage(c.get("deps"), actorOf(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deletePackageRoute, async (c) =>
    c.json(await retirePackage(c.get("deps"), actorOf(c), c.req.valid("param").id), 200),
  );
  router.openapi(listPlansRoute, async (c) =>
    c.json({ items: await adminListPlans(c.get("deps")) }, 200),
  );
  router.openapi(createPlanRoute, async (c) =>
    c.json(await createPlan(c.get("deps"), actorOf(c), c.req.valid("json")), 201),
  );
  router.openapi(updatePlanRoute, async (c) =>
    c.json(
      await updatePlan(c.get("deps"), actorOf(c), c.req.valid("param").id, c.req.valid("json")),
      200,
    ),
  );
  router.openapi(deletePlanRoute, async (c) =>
    c.json(await retirePlan(c.get("deps"), actorOf(c), c.req.valid("param").id), 200),
  );
  return router;
}
