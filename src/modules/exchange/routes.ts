import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { authErrorResponses, ErrorSchema, errorResponse } from "../../http/errors";
import { okResponse as ok, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { ConversionSchema, ConvertQuery, RatesQuery, RatesSchema } from "./schemas";
import { convert, getRates } from "./service";

const tags = ["Exchange rates"];
const noRates = { 503: errorResponse(ErrorSchema, "No exchange rates are loaded yet") };

const ratesRoute = createRoute({
  method: "get",
  path: "/api/v1/exchange/rates",
  tags,
  security,
  summary: "Reference rates of the newest day for a base currency, with their date and source",
  middleware: [requireAuth] as const,
  request: { query: RatesQuery },
  responses: { ...ok(RatesSchema, "Rates"), ...authErrorResponses, ...noRates },
});

const convertRoute = createRoute({
  method: "get",
  path: "/api/v1/exchange/convert",
  tags,
  security,
  summary: "Converts an amount exactly; the result is rounded half-even to the target's minor unit",
  middleware: [requireAuth] as const,
  request: { query: ConvertQuery },
  responses: { ...ok(ConversionSchema, "Conversion"), ...authErrorResponses, ...noRates },
});

export function createExchangeRoutes() {
  const router = createRouter();
  router.openapi(ratesRoute, async (c) =>
    c.json(await getRates(c.get("deps"), c.req.valid("query").base), 200),
  );
  router.openapi(convertRoute, async (c) =>
    c.json(await convert(c.get("deps"), c.req.valid("query")), 200),
  );
  return router;
}
