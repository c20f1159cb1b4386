import { describe, expect, it } from "vitest";
import { createTestContext } from "../support/harness";

// The API map (../shared/API.md) is a contract clients and outside tests rely on: every route
// it lists must be in the served OpenAPI document under the same method and path. The list is
// copied here because CI runs on a clone of this repository alone.
const API_MAP = `
GET /api/v1/auth/csrf
POST /api/v1/auth/register
POST /api/v1/auth/login
POST /api/v1/auth/guest
POST /api/v1/auth/wechat/login
POST /api/v1/auth/refresh
POST /api/v1/auth/logout
POST /api/v1/auth/password
GET /api/v1/auth/me
PATCH /api/v1/users/me
GET /api/v1/usage/stats
GET /api/v1/credits/balance
GET /api/v1/credits/history
GET /api/v1/credits/packages
GET /api/v1/credits/plans
POST /api/v1/credits/purchase
POST /api/v1/credits/subscribe
POST /api/v1/payments/create-order
GET /api/v1/payments/orders
GET /api/v1/payments/orders/:order_no
POST /api/v1/payments/callback
POST /api/v1/payments/stripe/webhook
GET /api/v1/referrals
POST /api/v1/certification
GET /api/v1/certification
POST /api/v1/invoices
GET /api/v1/invoices
GET /api/v1/customers
POST /api/v1/customers
GET /api/v1/customers/health-overview
GET /api/v1/customers/health-scores
GET /api/v1/customers/silent
POST /api/v1/customers/import
GET /api/v1/customers/export
GET /api/v1/customers/:id/health
GET /api/v1/customers/:id/followups
POST /api/v1/customers/:id/followups
POST /api/v1/customers/:id/followups/draft
GET, PATCH, DELETE /api/v1/customers/:id
GET, POST /api/v1/products
POST /api/v1/products/import
GET, PATCH, DELETE /api/v1/products/:id
GET, POST /api/v1/quotations
POST /api/v1/quotations/from-inquiry
GET, PATCH, DELETE /api/v1/quotations/:id
GET /api/v1/quotations/:id/export
GET /api/v1/exchange/rates
GET /api/v1/exchange/convert
GET, PATCH /api/v1/notifications
POST /api/v1/notifications/read-all
POST /api/v1/translate
POST /api/v1/marketing/generate
POST /api/v1/marketing/events
GET /api/v1/marketing/stats
POST /api/v1/ai/chat
GET /api/v1/ai/quick-questions
GET /api/v1/ai/conversations
POST /api/v1/discovery/search
POST, GET /api/v1/discovery/records
DELETE /api/v1/discovery/records/:id
POST /agent/start
GET /agent/pipelines
GET /agent/:id
POST /api/v1/agent/start
GET /api/v1/agent/pipelines
GET /api/v1/agent/:id
GET, POST /api/v1/webhooks/wechat
POST /api/v1/jobs/:name
GET /api/v1/admin/users
GET, PATCH /api/v1/admin/users/:id
GET /api/v1/admin/stats
GET /api/v1/admin/usage-logs
GET /api/v1/admin/system-config
GET, PUT /api/v1/admin/system-config/:key
GET, POST /api/v1/admin/ai-providers
GET, PATCH, DELETE /api/v1/admin/ai-providers/:id
GET, PUT /api/v1/admin/ai-routing
GET, POST /api/v1/admin/translation-quotas
GET, PATCH, DELETE /api/v1/admin/translation-quotas/:id
GET, POST /api/v1/admin/search-providers
GET, PATCH, DELETE /api/v1/admin/search-providers/:id
GET, POST /api/v1/admin/faq
GET, PATCH, DELETE /api/v1/admin/faq/:id
GET /api/v1/admin/payments
GET /api/v1/admin/payments/stats
POST /api/v1/admin/payments/:order_no/refund
GET, POST /api/v1/admin/credit-packages
GET, POST /api/v1/admin/credit-plans
GET /api/v1/admin/credit-users
GET /api/v1/admin/credit-consumptions
POST /api/v1/admin/credit-users/:user_id/adjust
GET /api/v1/admin/certifications
GET /api/v1/admin/invoices
`;

const { app } = await createTestContext();

/** `/a/{id}/b` and `/a/:id/b` are the same route: compare with every parameter as `:`. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, ":");

describe("API map", () => {
  it("serves every route of API.md under its method and path", async () => {
    const doc = (await (await app.request("/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const served = new Set<string>();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        served.add(`${method.toUpperCase()} ${shape(path)}`);
      }
    }
    const missing: string[] = [];
    for (const line of API_MAP.trim().split("\n")) {
      const path = line.slice(line.lastIndexOf(" ") + 1);
      for (const method of line.slice(0, line.lastIndexOf(" ")).split(", ")) {
        if (!served.has(`${method} ${shape(path)}`)) missing.push(`${method} ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
