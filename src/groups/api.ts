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
import { createGlossaryRoutes } from "../modules/glossary/routes";
import { createMarketingRoutes } from "../modules/marketing/routes";
import { createNotificationRoutes } from "../modules/notifications/routes";
import { createProductRoutes } from "../modules/products/routes";
import { createTranslateRoutes } from "../modules/translate/routes";

/**
 * Route group `api`: the seller's workspace and AI tools, except the spreadsheet and PDF routes
 * (group `documents`). Node mounts both in one sequence (src/groups/index.ts).
 */
export const apiRouters = [
  createCustomerRoutes,
  createCustomerPoolRoutes,
  createProductRoutes,
  createExchangeRoutes,
  createNotificationRoutes,
  createTranslateRoutes,
  createGlossaryRoutes,
  createAssistantRoutes,
  createFaqRoutes,
  createMarketingRoutes,
  createAiDraftRoutes,
  createDiscoveryRoutes,
  createAgentRoutes,
  createAiUsageRoutes,
] as const;

export const apiRoutes = (): AppRouter[] => apiRouters.map((create) => create());
