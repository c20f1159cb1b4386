import { createRoute } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  jsonBody as body,
  jsonResponse as json,
  notFoundResponse,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import { ManualRateBody, ManualRateParam, ManualRateSchema, RefreshOutcomeSchema } from "./schemas";
import { adminRefreshRates, deleteManualRate, putManualRate } from "./service";

const tags = ["Admin: exchange rates"];
const invalid = { 422: errorResponse(ErrorSchema, "Not an ISO 4217 code, or not a usable rate") };

const refreshRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/exchange-rates/refresh",
  tags,
  security,
  summary:
    "Refresh the rates from every configured source now (ECB, then the wide source); says what each did",
  middleware: [...writeGuard],
  responses: { 200: json(RefreshOutcomeSchema, "What each source did"), ...adminErrors },
});

const putRoute = createRoute({
  method: "put",
  path: "/api/v1/admin/exchange-rates/{currency}",
  tags,
  security,
  summary:
    "Set a manual rate for any ISO 4217 currency (1 `base` = `rate` units of it), used over the sources",
  middleware: [...writeGuard],
  request: { params: ManualRateParam, body: body(ManualRateBody) },
  responses: { 200: json(ManualRateSchema, "The stored manual rate"), ...invalid, ...adminErrors },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/api/v1/admin/exchange-rates/{currency}",
  tags,
  security,
  summary: "Remove a currency's manual rate: the sources answer for it again",
  middleware: [...writeGuard],
  request: { params: ManualRateParam },
  responses: {
    204: { description: "Removed" },
    ...notFoundResponse("The currency has no manual rate"),
    ...invalid,
    ...adminErrors,
  },
});

/** Admin: exchange rates (refresh now, manual rates); every write audited. */
export function createExchangeAdminRoutes() {
  const router = createRouter();
  router.openapi(refreshRoute, async (c) =>
    c.json(await adminRefreshRates(c.get("deps"), actorOf(c)), 200),
  );
  router.openapi(putRoute, async (c) => {
    const { currency } = c.req.valid("param");
    const { base, rate } = c.req.valid("json");
    return c.json(await putManualRate(c.get("deps"), actorOf(c), { currency, base, rate }), 200);
  });
  router.openapi(deleteRoute, async (c) => {
    await deleteManualRate(c.get("deps"), actorOf(c), c.req.valid("param").currency);
    return c.body(null, 204);
  });
  return router;
}
