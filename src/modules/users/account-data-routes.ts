import { createRoute, z } from "@hono/zod-openapi";
import { requireAuth } from "../../http/auth";
import { csrfSecurity, requireCsrf } from "../../http/csrf";
import {
  authErrorResponses,
  csrfErrorResponses,
  ErrorSchema,
  errorResponse,
  rateLimitedResponses,
} from "../../http/errors";
import { limitByUser } from "../../http/limits";
import { bearerSecurity, jsonResponse as json, jsonBody } from "../../http/openapi";
import { RATE_LIMIT_RULES } from "../../http/rate-limit-rules";
import { createRouter } from "../../http/router";
import { actorOf } from "../admin/writes";
import { deleteAccount, exportAccount, requestDeletionCode } from "./account-data";
import { AccountDeleteBody, DeletionCodeSent } from "./account-data-schemas";

const tags = ["Accounts"];

const deleteMeRoute = createRoute({
  method: "delete",
  path: "/api/v1/users/me",
  tags,
  security: csrfSecurity,
  summary: "Delete the account and its data; every session ends",
  description:
    "`{password}`, or for an account without one (WeChat sign-in) `{code}` mailed by POST /api/v1/users/me/deletion-code. The organisation's rules apply: the owner of an organisation with other members transfers ownership first (409); a member leaves as when removed (their customers to the pool, the company keeps its records). The records of the account's own organisation go; the credit ledger, payments, subscriptions and invoices stay as money records naming the anonymised account. Audited (`user.delete`).",
  middleware: [requireAuth, requireCsrf, limitByUser(RATE_LIMIT_RULES.accountDelete)] as const,
  request: { body: jsonBody(AccountDeleteBody) },
  responses: {
    204: { description: "Deleted; the session is over" },
    409: errorResponse(
      ErrorSchema,
      "The owner of an organisation with other members: transfer ownership first",
    ),
    ...csrfErrorResponses,
    403: errorResponse(ErrorSchema, "A guest session, or a missing or invalid CSRF token"),
    ...rateLimitedResponses,
  },
});

const deletionCodeRoute = createRoute({
  method: "post",
  path: "/api/v1/users/me/deletion-code",
  tags,
  security: csrfSecurity,
  summary: "Mail a code that confirms DELETE /users/me (accounts without a password)",
  middleware: [
    requireAuth,
    requireCsrf,
    limitByUser(RATE_LIMIT_RULES.accountDeletionCode),
  ] as const,
  responses: {
    202: json(DeletionCodeSent, "Mailed to the account's address; good for 15 minutes"),
    409: errorResponse(ErrorSchema, "The account has a password, or no address to mail"),
    502: errorResponse(ErrorSchema, "The mail provider did not take the mail (`mail_failed`)"),
    ...csrfErrorResponses,
    403: errorResponse(ErrorSchema, "A guest session, or a missing or invalid CSRF token"),
    ...rateLimitedResponses,
  },
});

const exportMeRoute = createRoute({
  method: "get",
  path: "/api/v1/users/me/export",
  tags,
  security: bearerSecurity,
  summary: "Every record the caller holds, as a zip of JSON and CSV files",
  description:
    "Profile, organisation, customers held, follow-ups, products and quotations (with lines) made, credit ledger, payments, subscriptions, invoices, certifications, notifications, marketing, translations, assistant conversations, discovery records, agent runs and usage logs: `<kind>.json` and `<kind>.csv` each. Audited (`user.export`).",
  middleware: [requireAuth, limitByUser(RATE_LIMIT_RULES.accountExport)] as const,
  responses: {
    200: {
      description: "The zip, as an attachment",
      content: { "application/zip": { schema: z.string().openapi({ format: "binary" }) } },
    },
    ...authErrorResponses,
    ...rateLimitedResponses,
  },
});

export function createAccountDataRoutes() {
  const router = createRouter();
  router.openapi(deletionCodeRoute, async (c) =>
    c.json(await requestDeletionCode(c.get("deps"), c.get("auth").userId), 202),
  );
  router.openapi(exportMeRoute, async (c) => {
    const { filename, bytes } = await exportAccount(c.get("deps"), actorOf(c));
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Content-Length": String(bytes.byteLength),
      "Cache-Control": "no-store",
    });
  });
  router.openapi(deleteMeRoute, async (c) => {
    await deleteAccount(c.get("deps"), actorOf(c), c.req.valid("json"));
    return c.body(null, 204);
  });
  return router;
}
