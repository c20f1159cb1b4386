import type { AppRouter } from "../http/router";
import { createAdminRoutes } from "../modules/admin/routes";
import { createAiAdminRoutes } from "../modules/ai-admin/routes";
import { createAiCallAdminRoutes } from "../modules/ai-usage/admin-routes";
import { createCreditAdminRoutes } from "../modules/credits/admin-routes";
import { createSearchProviderAdminRoutes } from "../modules/discovery/admin-routes";
import { createExchangeAdminRoutes } from "../modules/exchange/admin-routes";
import { createGrowthAdminRoutes } from "../modules/growth/admin-routes";
import { createPaymentAdminRoutes } from "../modules/payments/admin-routes";

/** Route group `admin`: administration (all routes admin-only, 30/min per admin). */
export const adminRoutes = (): AppRouter[] => [
  createAdminRoutes(),
  createCreditAdminRoutes(),
  createPaymentAdminRoutes(),
  createGrowthAdminRoutes(),
  createAiAdminRoutes(),
  createAiCallAdminRoutes(),
  createSearchProviderAdminRoutes(),
  createExchangeAdminRoutes(),
];
