// Kept for src/jobs/tasks.ts and the tests, which import it by this path; the code is in
// ./service/orders.ts (point those imports there and delete this file).
export {
  createOrder,
  expirePendingOrders,
  type OrderItem,
  type OrderResponse,
  recordPaymentEvent,
} from "./service/orders";
