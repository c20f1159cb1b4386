import { createRoute } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import {
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  rateLimitedResponses,
} from "../../http/errors";
import { idempotentRequest } from "../../http/idempotency";
import { limitByUser } from "../../http/limits";
import { IdParam, jsonResponse as json, jsonBody, notFoundResponse } from "../../http/openapi";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { sendQuotation } from "./send";
import { QuotationSendBody, QuotationSendResult } from "./send-schemas";

const sendQuotationRoute = createRoute({
  method: "post",
  path: "/api/v1/quotations/{id}/send",
  tags: ["Quotations"],
  security: csrfSecurity,
  summary: "Mail the quotation (PDF or xlsx attached) to the buyer, mark it sent, log a follow-up",
  description:
    "The document goes through the configured mail (SMTP or the HTTP mail API) with reply-to the sending member; once the provider has taken it, the quotation becomes `sent` (a sent one may be sent again) and a follow-up (channel email, the message as its note) is logged on its customer. A refused or failed mail writes nothing (502 `mail_failed`, `reason`). Idempotent under `Idempotency-Key`: a repeat answers the first outcome and mails nothing.",
  middleware: [
    requireAuth,
    requireCsrf,
    limitByUser(RATE_LIMIT_RULES.quotationSend),
    idempotentRequest,
  ] as const,
  request: {
    params: IdParam,
    body: jsonBody(QuotationSendBody),
  },
  responses: {
    200: json(QuotationSendResult, "Sent: the quotation, the follow-up logged, what was mailed"),
    ...notFoundResponse("No such quotation the caller may change"),
    409: errorResponse(
      ErrorSchema,
      "Not a draft or sent quotation (`conflict`), a line priced 0 (`quotation_unpriced`, `lines`), its customer in the pool or another member's, or an Idempotency-Key still in flight",
    ),
    502: errorResponse(
      ErrorSchema,
      "The mail provider refused or failed (`mail_failed`, `reason`: invalid_message, network, timeout, rejected, rate_limited, unavailable); nothing was written",
    ),
    ...csrfErrorResponses,
    ...rateLimitedResponses,
  },
});

export function createQuotationSendRoutes() {
  const router = createRouter();
  router.openapi(sendQuotationRoute, async (c) =>
    c.json(
      await sendQuotation(
        c.get("deps"),
        c.get("auth").userId,
        c.req.valid("param").id,
        c.req.valid("json"),
      ),
      200,
    ),
  );
  return router;
}
