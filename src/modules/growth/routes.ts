import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
} from "../../http/errors";
import {
  jsonBody as body,
  jsonResponse as json,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import {
  CertificationBody,
  CertificationSchema,
  InvoiceBody,
  InvoiceSchema,
  InvoicesPage,
  InvoicesQuery,
  ReferralsSchema,
} from "./schemas";
import {
  getCertification,
  getReferrals,
  listOwnInvoices,
  requestInvoice,
  submitCertification,
} from "./service";

const referralsRoute = createRoute({
  method: "get",
  path: "/api/v1/referrals",
  tags: ["Growth"],
  security,
  summary: "The caller's referral code, link and rewarded referrals",
  middleware: [requireAuth] as const,
  responses: {
    200: json(ReferralsSchema, "Referrals"),
    ...authErrorResponses,
    403: errorResponse(ErrorSchema, "Guests cannot invite"),
  },
});

const submitCertificationRoute = createRoute({
  method: "post",
  path: "/api/v1/certification",
  tags: ["Growth"],
  security: csrfSecurity,
  summary: "Submit business certification; again only after a rejection",
  middleware: [requireAuth, requireCsrf] as const,
  request: { body: body(CertificationBody) },
  responses: {
    201: json(CertificationSchema, "Submitted, pending review"),
    409: errorResponse(ErrorSchema, "Already pending or approved"),
    ...csrfErrorResponses,
  },
});

const getCertificationRoute = createRoute({
  method: "get",
  path: "/api/v1/certification",
  tags: ["Growth"],
  security,
  summary: "The caller's certification and its status",
  middleware: [requireAuth] as const,
  responses: {
    200: json(CertificationSchema, "Certification"),
    404: errorResponse(ErrorSchema, "None submitted"),
    ...authErrorResponses,
  },
});

const requestInvoiceRoute = createRoute({
  method: "post",
  path: "/api/v1/invoices",
  tags: ["Growth"],
  security: csrfSecurity,
  summary: "Request an invoice for one of the caller's paid orders (amount less refunds)",
  middleware: [requireAuth, requireCsrf] as const,
  request: { body: body(InvoiceBody) },
  responses: {
    201: json(InvoiceSchema, "Requested"),
    404: errorResponse(ErrorSchema, "No such order of the caller"),
    409: errorResponse(ErrorSchema, "Order not paid, or already invoiced"),
    ...csrfErrorResponses,
  },
});

const listInvoicesRoute = createRoute({
  method: "get",
  path: "/api/v1/invoices",
  tags: ["Growth"],
  security,
  summary: "The caller's invoice requests, newest first",
  middleware: [requireAuth] as const,
  request: { query: InvoicesQuery },
  responses: { 200: json(InvoicesPage, "A page of invoices"), ...authErrorResponses },
});

export function createGrowthRoutes() {
  const router = createRouter();
  router.openapi(referralsRoute, async (c) =>
    c.json(await getReferrals(c.get("deps"), c.get("auth").userId), 200),
  );
  router.openapi(submitCertificationRoute, async (c) =>
    c.json(
      await submitCertification(c.get("deps"), c.get("auth").userId, c.req.valid("json")),
      201,
    ),
  );
  router.openapi(getCertificationRoute, async (c) =>
    c.json(await getCertification(c.get("deps"), c.get("auth").userId), 200),
  );
  router.openapi(requestInvoiceRoute, async (c) =>
    c.json(await requestInvoice(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  router.openapi(listInvoicesRoute, async (c) =>
    c.json(
      await listOwnInvoices(c.get("deps"), {
        ...c.req.valid("query"),
        userId: c.get("auth").userId,
      }),
      200,
    ),
  );
  return router;
}
