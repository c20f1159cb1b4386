// The payments service: the rules over ./queries, one file per flow.
export { listPayments, paymentStats } from "./admin";
export { handleGatewayCallback } from "./callback";
export { createOrder, getOrder, listOrders } from "./orders";
export { refundOrder } from "./refunds";
export { renderSandboxPage, sandboxCancel, sandboxPagePath, sandboxPay } from "./sandbox";
export { handleStripeWebhook } from "./stripe-webhook";
