/**
 * The only code that reads or writes the credits tables (user_credits, credit_lots,
 * credit_ledger, credit_consumptions, credit_holds, idempotency_keys, credit_packages). Every
 * balance change is one statement with its ledger row, through the credit_* SQL functions.
 */
export * from "./admin";
export * from "./balance";
export * from "./holds";
export * from "./idempotency";
export * from "./quotes";
export * from "./subscription";
