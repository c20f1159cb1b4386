import { createRoute } from "@hono/zod-openapi";
import { ErrorSchema, errorResponse } from "../../http/errors";
import {
  adminErrorResponses as adminErrors,
  jsonBody as body,
  adminGuard as guard,
  IdParam,
  jsonResponse as json,
  bearerSecurity as security,
  adminWriteGuard as writeGuard,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import {
  AdminInvoicesPage,
  AdminInvoicesQuery,
  CertificationSchema,
  CertificationsPage,
  CertificationsQuery,
  InvoiceSchema,
  IssueBody,
  RejectBody,
} from "./schemas";
import {
  adminListInvoices,
  issueInvoice,
  listCertifications,
  reviewCertification,
} from "./service";

const reviewErrors = {
  404: errorResponse(ErrorSchema, "Not found"),
  409: errorResponse(ErrorSchema, "Already reviewed"),
  ...adminErrors,
};

const listCertificationsRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/certifications",
  tags: ["Admin: growth"],
  security,
  summary: "Certifications, most recently changed first, by status",
  middleware: [...guard],
  request: { query: CertificationsQuery },
  responses: { 200: json(CertificationsPage, "A page of certifications"), ...adminErrors },
});

const approveCertificationRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/certifications/{id}/approve",
  tags: ["Admin: growth"],
  security,
  summary: "Approve a pending certification; the user is notified",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 200: json(CertificationSchema, "Approved"), ...reviewErrors },
});

const rejectCertificationRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/certifications/{id}/reject",
  tags: ["Admin: growth"],
  security,
  summary: "Reject a pending certification with a reason; the user is notified and may resubmit",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(RejectBody) },
  responses: { 200: json(CertificationSchema, "Rejected"), ...reviewErrors },
});

const listInvoicesAdminRoute = createRoute({
  method: "get",
  path: "/api/v1/admin/invoices",
  tags: ["Admin: growth"],
  security,
  summary: "Invoice requests, newest first, by status or user",
  middleware: [...guard],
  request: { query: AdminInvoicesQuery },
  responses: { 200: json(AdminInvoicesPage, "A page of invoices"), ...adminErrors },
});

const issueInvoiceRoute = createRoute({
  method: "post",
  path: "/api/v1/admin/invoices/{id}/issue",
  tags: ["Admin: growth"],
  security,
  summary: "Mark an invoice issued with its number; the user is notified",
  middleware: [...writeGuard],
  request: { params: IdParam, body: body(IssueBody) },
  responses: { 200: json(InvoiceSchema, "Issued"), ...reviewErrors },
});

export function createGrowthAdminRoutes() {
  const router = createRouter();
  router.openapi(listCertificationsRoute, async (c) =>
    c.json(await listCertifications(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(approveCertificationRoute, async (c) =>
    c.json(
      await reviewCertification(c.get("deps"), actorOf(c), {
        id: c.req.valid("param").id,
        decision: "approved",
      }),
      200,
    ),
  );
  router.openapi(rejectCertificationRoute, async (c) =>
    c.json(
      await reviewCertification(c.get("deps"), actorOf(c), {
        id: c.req.valid("param").id,
        decision: "rejected",
        reason: c.req.valid("json").reason,
      }),
      200,
    ),
  );
  router.openapi(listInvoicesAdminRoute, async (c) =>
    c.json(await adminListInvoices(c.get("deps"), c.req.valid("query")), 200),
  );
  router.openapi(issueInvoiceRoute, async (c) =>
    c.json(
      await issueInvoice(c.get("deps"), actorOf(c), {
        id: c.req.valid("param").id,
        invoiceNumber: c.req.valid("json").invoice_number,
      }),
      200,
    ),
  );
  return router;
}
