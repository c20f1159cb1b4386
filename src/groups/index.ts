import type { AppRouter } from "../http/router";
import { createAgentRoutes } from "../modules/agent/routes";
import { createAiDraftRoutes } from "../modules/ai-drafts/routes";
import { createAiUsageRoutes } from "../modules/ai-usage/routes";
import { createAssistantRoutes } from "../modules/assistant/routes";
import { createCustomerPoolRoutes } from "../modules/customers/pool/routes";
import { createCustomerRoutes } from "../modules/customers/routes";
import { createDiscoveryRoutes } from "../modules/discovery/routes";
import { createExchangeRoutes } from "../modules/exchange/routes";
import { createFaqRoutes } from "../modules/faq/routes";
import { createGlossaryImportRoutes } from "../modules/glossary/import-routes";
import { createGlossaryRoutes } from "../modules/glossary/routes";
import { createImportExportRoutes } from "../modules/imports/routes";
import { createMarketingRoutes } from "../modules/marketing/routes";
import { createNotificationRoutes } from "../modules/notifications/routes";
import { createProductRoutes } from "../modules/products/routes";
import { createQuotationRoutes } from "../modules/quotations/routes";
import { createQuotationSendRoutes } from "../modules/quotations/send-routes";
import { createTranslateRoutes } from "../modules/translate/routes";
import { adminRoutes } from "./admin";
import { apiRouters, apiRoutes } from "./api";
import { authRoutes } from "./auth";
import { cronRoutes } from "./cron";
import { documentsRouters, documentsRoutes } from "./documents";
import { jobsRoutes } from "./jobs";
import { paymentsRoutes } from "./payments";
import { webhooksRoutes } from "./webhooks";

/**
 * One deployable per group (functions/<group>.ts imports only its own file, never this one);
 * the Node server mounts them all. `documents` precedes `api` so that, mounted group by group,
 * /customers/export still comes before /customers/{id}.
 */
export const ROUTE_GROUPS = {
  auth: authRoutes,
  documents: documentsRoutes,
  api: apiRoutes,
  admin: adminRoutes,
  payments: paymentsRoutes,
  webhooks: webhooksRoutes,
  jobs: jobsRoutes,
  cron: cronRoutes,
};

export type RouteGroup = keyof typeof ROUTE_GROUPS;
export const ALL_GROUPS = Object.keys(ROUTE_GROUPS) as RouteGroup[];

type RouterFactory = () => AppRouter;

/**
 * The seller's workspace (groups api and documents) in the order one app mounts it: literal
 * paths before parameters across the two groups (/customers/import and /customers/export before
 * /customers/{id}), and the OpenAPI document's path order from before the two were split into
 * Workers of their own, so the served contract did not move.
 */
export const WORKSPACE_ORDER: readonly RouterFactory[] = [
  createImportExportRoutes,
  createCustomerRoutes,
  createCustomerPoolRoutes,
  createProductRoutes,
  createQuotationRoutes,
  createQuotationSendRoutes,
  createExchangeRoutes,
  createNotificationRoutes,
  createTranslateRoutes,
  createGlossaryImportRoutes,
  createGlossaryRoutes,
  createAssistantRoutes,
  createFaqRoutes,
  createMarketingRoutes,
  createAiDraftRoutes,
  createDiscoveryRoutes,
  createAgentRoutes,
  createAiUsageRoutes,
];

const WORKSPACE_ROUTERS: Partial<Record<RouteGroup, readonly RouterFactory[]>> = {
  api: apiRouters,
  documents: documentsRouters,
};

/**
 * The routers of the named groups for one app (the Node server, tests): each group in turn,
 * except that api and documents are mounted together, in WORKSPACE_ORDER, where the first of
 * them is named.
 */
export function routersOf(groups: readonly RouteGroup[]): AppRouter[] {
  const workspace = new Set(groups.flatMap((group) => WORKSPACE_ROUTERS[group] ?? []));
  let workspaceMounted = false;
  return groups.flatMap((group) => {
    if (!WORKSPACE_ROUTERS[group]) return ROUTE_GROUPS[group]();
    if (workspaceMounted) return [];
    workspaceMounted = true;
    return WORKSPACE_ORDER.filter((create) => workspace.has(create)).map((create) => create());
  });
}
