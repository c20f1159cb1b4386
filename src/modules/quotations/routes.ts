import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
} from "../../http/errors";
import {
  IdParam,
  jsonResponse as json,
  jsonBody,
  notFoundResponse,
  bearerSecurity as security,
} from "../../http/openapi";
import { createRouter } from "../../http/router";
import { makeDocument } from "./make-document";
import {
  BinaryDocument,
  ExportQuery,
  QuotationBody,
  QuotationPatch,
  QuotationSchema,
  QuotationsPage,
  QuotationsQuery,
} from "./schemas";
import {
  createQuotation,
  deleteQuotation,
  documentFileName,
  duplicateQuotation,
  getQuotation,
  listQuotations,
  quotationDocument,
  reviseQuotation,
  updateQuotation,
} from "./service";

const tags = ["Quotations"];
// API.md marks these B only; a browser session riding on cookies still needs the CSRF token,
// which requireAuth checks on every write (docs/decisions.md, CSRF).
const writeGuard = [requireAuth];
const noSuchQuotation = notFoundResponse("No such quotation of the caller");

const listQuotationsRoute = createRoute({
  method: "get",
  path: "/api/v1/quotations",
  tags,
  security,
  summary: "The caller's quotations, newest first (filters: status, customer_id)",
  middleware: [requireAuth] as const,
  request: { query: QuotationsQuery },
  responses: { 200: json(QuotationsPage, "A page of quotations"), ...authErrorResponses },
});

const createQuotationRoute = createRoute({
  method: "post",
  path: "/api/v1/quotations",
  tags,
  security,
  summary: "Create a draft quotation; totals are computed in integer minor units",
  middleware: [...writeGuard],
  request: { body: jsonBody(QuotationBody) },
  responses: { 201: json(QuotationSchema, "Created"), ...csrfErrorResponses },
});

const getQuotationRoute = createRoute({
  method: "get",
  path: "/api/v1/quotations/{id}",
  tags,
  security,
  summary: "One quotation with its items",
  middleware: [requireAuth] as const,
  request: { params: IdParam },
  responses: {
    200: json(QuotationSchema, "The quotation"),
    ...noSuchQuotation,
    ...authErrorResponses,
  },
});

const updateQuotationRoute = createRoute({
  method: "patch",
  path: "/api/v1/quotations/{id}",
  tags,
  security,
  summary: "Edit a draft (items are replaced and totals recomputed) or move its status",
  description:
    "Statuses: draft -> sent -> accepted | rejected | expired (a revision makes one `superseded`). Content edits need a draft (409 otherwise). Marking it sent needs every line priced (409 `quotation_unpriced` naming the lines); sent moves its customer to `quoted`, accepted to `won`, never back.",
  middleware: [...writeGuard],
  request: { params: IdParam, body: jsonBody(QuotationPatch) },
  responses: {
    200: json(QuotationSchema, "The quotation"),
    409: errorResponse(ErrorSchema, "Not a draft, or a transition that is not allowed"),
    ...noSuchQuotation,
    ...csrfErrorResponses,
  },
});

const deleteQuotationRoute = createRoute({
  method: "delete",
  path: "/api/v1/quotations/{id}",
  tags,
  security,
  summary: "Delete a quotation and its items",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...noSuchQuotation, ...csrfErrorResponses },
});

const reviseQuotationRoute = createRoute({
  method: "post",
  path: "/api/v1/quotations/{id}/revisions",
  tags,
  security,
  summary: "A new draft revision of a sent, accepted, rejected or expired quotation",
  description:
    "Same quote number with `revision` + 1 and `previous_id`, the same terms and lines; the old one becomes `superseded`. 409 `quotation_not_revisable` for a draft or an already superseded quotation.",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: {
    201: json(QuotationSchema, "The new revision (a draft)"),
    409: errorResponse(ErrorSchema, "`quotation_not_revisable`: a draft, or already revised"),
    ...noSuchQuotation,
    ...csrfErrorResponses,
  },
});

const duplicateQuotationRoute = createRoute({
  method: "post",
  path: "/api/v1/quotations/{id}/duplicate",
  tags,
  security,
  summary: "A new draft with a new number, the same customer, terms and lines",
  middleware: [...writeGuard],
  request: { params: IdParam },
  responses: {
    201: json(QuotationSchema, "The copy (a draft)"),
    409: errorResponse(ErrorSchema, "The customer is in the pool or held by another member"),
    ...noSuchQuotation,
    ...csrfErrorResponses,
  },
});

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

const exportQuotationRoute = createRoute({
  method: "get",
  path: "/api/v1/quotations/{id}/export",
  tags,
  security,
  summary:
    "The quotation (or, `document=proforma`, its proforma invoice) as a buyer-ready PDF (CJK font embedded) or .xlsx",
  middleware: [requireAuth] as const,
  request: { params: IdParam, query: ExportQuery },
  responses: {
    200: {
      description: "The document, as an attachment named after the quote number",
      content: {
        "application/pdf": { schema: BinaryDocument },
        [XLSX_TYPE]: { schema: BinaryDocument },
      },
    },
    ...noSuchQuotation,
    409: errorResponse(
      ErrorSchema,
      "`quotation_not_accepted`: a proforma invoice of a quotation that is not accepted",
    ),
    503: errorResponse(
      ErrorSchema,
      "PDF font not available on this runtime, too many documents being made, or the document not made within its time budget (DOCUMENT_TIME_BUDGET_MS)",
    ),
    ...authErrorResponses,
    422: errorResponse(
      ErrorSchema,
      "Validation failed, or `unsupported_script`: a PDF of right-to-left text (Arabic, Hebrew...), which it cannot shape (`script`, `field`); the xlsx carries it",
    ),
  },
});

export function createQuotationRoutes() {
  const router = createRouter();
  router.openapi(listQuotationsRoute, async (c) =>
    c.json(await listQuotations(c.get("deps"), c.get("auth").userId, c.req.valid("query")), 200),
  );
  router.openapi(createQuotationRoute, async (c) =>
    c.json(await createQuotation(c.get("deps"), c.get("auth").userId, c.req.valid("json")), 201),
  );
  // Literal /export is a sub-path of /{id}, so it cannot collide with the id route.
  router.openapi(exportQuotationRoute, async (c) => {
    const { format, document } = c.req.valid("query");
    const doc = await quotationDocument(
      c.get("deps"),
      c.get("auth").userId,
      c.req.valid("param").id,
      document,
    );
    const bytes = await makeDocument(c.get("deps"), format, doc);
    const filename = documentFileName(doc, format);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": format === "pdf" ? "application/pdf" : XLSX_TYPE,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(bytes.byteLength),
    });
  });
  router.openapi(reviseQuotationRoute, async (c) =>
    c.json(
      await reviseQuotation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
      201,
    ),
  );
  router.openapi(duplicateQuotationRoute, async (c) =>
    c.json(
      await duplicateQuotation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id),
      201,
    ),
  );
  router.openapi(getQuotationRoute, async (c) =>
    c.json(await getQuotation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id), 200),
  );
  router.openapi(updateQuotationRoute, async (c) =>
    c.json(
      await updateQuotation(
        c.get("deps"),
        c.get("auth").userId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  router.openapi(deleteQuotationRoute, async (c) => {
    await deleteQuotation(c.get("deps"), c.get("auth").userId, c.req.valid("param").id);
    return c.body(null, 204);
  });
  return router;
}
