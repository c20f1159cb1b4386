// Kept for src/jobs/tasks.ts and the tests, which import it by this path; the code is in
// ./service/refunds.ts (point those imports there and delete this file).
export { applyRefund, reconcilePendingRefunds } from "./service/refunds";
