/**
 * Stable, camelCase operationIds, the names generated SDKs give their methods. The rule names
 * an operation by its method and path below /api/v1 (`GET /customers/{id}/health` is
 * `getCustomersByIdHealth`), so a new route is named without anyone remembering to; the table
 * gives the everyday operations the names a client would write by hand. Renaming one breaks
 * generated clients: add names, do not change them.
 */
const NAMED_OPERATIONS: Record<string, string> = {
  "GET /health": "getLiveness",
  "GET /health/ready": "getReadiness",
  "GET /api/v1/auth/csrf": "getCsrfToken",
  "POST /api/v1/auth/register": "register",
  "POST /api/v1/auth/login": "login",
  "POST /api/v1/auth/guest": "startGuestSession",
  "POST /api/v1/auth/wechat/login": "loginWithWechat",
  "POST /api/v1/auth/refresh": "refreshSession",
  "POST /api/v1/auth/logout": "logout",
  "POST /api/v1/auth/password": "changePassword",
  "GET /api/v1/auth/me": "getMe",
  "PATCH /api/v1/users/me": "updateMe",
  "DELETE /api/v1/users/me": "deleteMe",
  "GET /api/v1/users/me/export": "exportMe",
  "GET /api/v1/customers": "listCustomers",
  "POST /api/v1/customers": "createCustomer",
  "GET /api/v1/customers/{id}": "getCustomer",
  "PATCH /api/v1/customers/{id}": "updateCustomer",
  "DELETE /api/v1/customers/{id}": "deleteCustomer",
  "POST /api/v1/customers/import": "importCustomers",
  "GET /api/v1/customers/export": "exportCustomers",
  "GET /api/v1/products": "listProducts",
  "POST /api/v1/products": "createProduct",
  "GET /api/v1/products/{id}": "getProduct",
  "PATCH /api/v1/products/{id}": "updateProduct",
  "DELETE /api/v1/products/{id}": "deleteProduct",
  "POST /api/v1/products/import": "importProducts",
  "GET /api/v1/quotations": "listQuotations",
  "POST /api/v1/quotations": "createQuotation",
  "GET /api/v1/quotations/{id}": "getQuotation",
  "PATCH /api/v1/quotations/{id}": "updateQuotation",
  "DELETE /api/v1/quotations/{id}": "deleteQuotation",
  "GET /api/v1/quotations/{id}/export": "exportQuotation",
  "POST /api/v1/quotations/{id}/send": "sendQuotation",
  "POST /api/v1/quotations/from-inquiry": "draftQuotationFromInquiry",
  "GET /api/v1/credits/balance": "getCreditBalance",
  "GET /api/v1/credits/history": "listCreditHistory",
  "GET /api/v1/credits/packages": "listCreditPackages",
  "GET /api/v1/credits/plans": "listPlans",
  "POST /api/v1/credits/purchase": "purchaseCredits",
  "POST /api/v1/credits/subscribe": "subscribe",
  "POST /api/v1/payments/create-order": "createPaymentOrder",
  "GET /api/v1/payments/orders": "listPaymentOrders",
  "GET /api/v1/payments/orders/{order_no}": "getPaymentOrder",
  "POST /api/v1/translate": "translate",
  "POST /api/v1/ai/chat": "chat",
  "POST /api/v1/marketing/generate": "generateMarketingContent",
};

const VERB: Record<string, string> = {
  get: "get",
  post: "post",
  put: "put",
  patch: "patch",
  delete: "delete",
  head: "head",
  options: "options",
};

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
/** `health-overview` and `read_all` become `HealthOverview` and `ReadAll`. */
const pascal = (segment: string) =>
  segment
    .split(/[^A-Za-z0-9]+/)
    .map(capitalise)
    .join("");

/** The rule alone: method, then each path segment below /api/v1, `{id}` as `ById`. */
export function ruleOperationId(method: string, path: string): string {
  const segments = path
    .replace(/^\/api\/v1(?=\/|$)/, "")
    .split("/")
    .filter(Boolean);
  const words = segments.map((segment) => {
    const parameter = /^\{(.+)\}$/.exec(segment);
    return parameter ? `By${pascal(parameter[1]!)}` : pascal(segment);
  });
  return `${VERB[method.toLowerCase()] ?? method.toLowerCase()}${words.join("")}`;
}

export function operationIdOf(method: string, path: string): string {
  return NAMED_OPERATIONS[`${method.toUpperCase()} ${path}`] ?? ruleOperationId(method, path);
}
