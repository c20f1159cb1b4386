import type { AppRouter } from "../http/router";
import { createCreditRoutes } from "../modules/credits/routes";
import { createGrowthRoutes } from "../modules/growth/routes";
import { createPaymentRoutes } from "../modules/payments/routes";

/** Route group `payments`: credits, payments, referrals, certification and invoices. */
export const paymentsRoutes = (): AppRouter[] => [
  createCreditRoutes(),
  createPaymentRoutes(),
  createGrowthRoutes(),
];
