import { adminRoutes } from "./admin";
import { apiRoutes } from "./api";
import { authRoutes } from "./auth";
import { cronRoutes } from "./cron";
import { jobsRoutes } from "./jobs";
import { paymentsRoutes } from "./payments";
import { webhooksRoutes } from "./webhooks";

/** One deployable per group (functions/<group>.ts imports only its own); the Node server mounts them all. */
export const ROUTE_GROUPS = {
  auth: authRoutes,
  api: apiRoutes,
  admin: adminRoutes,
  payments: paymentsRoutes,
  webhooks: webhooksRoutes,
  jobs: jobsRoutes,
  cron: cronRoutes,
};

export type RouteGroup = keyof typeof ROUTE_GROUPS;
export const ALL_GROUPS = Object.keys(ROUTE_GROUPS) as RouteGroup[];
