import type { AppRouter } from "../http/router";
import { createAgentRoutes } from "../modules/agent/routes";
import { createAiDraftRoutes } from "../modules/ai-drafts/routes";
import { createAssistantRoutes } from "../modules/assistant/routes";
import { createCustomerRoutes } from "../modules/customers/routes";
import { createDiscoveryRoutes } from "../modules/discovery/routes";
import { createExchangeRoutes } from "../modules/exchange/routes";
import { createImportExportRoutes } from "../modules/imports/routes";
import { createMarketingRoutes } from "../modules/marketing/routes";
import { createNotificationRoutes } from "../modules/notifications/routes";
import { createProductRoutes } from "../modules/products/routes";
import { createQuotationRoutes } from "../modules/quotations/routes";
import { createTranslateRoutes } from "../modules/translate/routes";

/** Route group `api`: the seller's workspace and AI tools. */
export const apiRoutes = (): AppRouter[] => [
  // Literal /customers/import and /customers/export before /customers/:id.
  createImportExportRoutes(),
  createCustomerRoutes(),
  createProductRoutes(),
  createQuotationRoutes(),
  createExchangeRoutes(),
  createNotificationRoutes(),
  createTranslateRoutes(),
  createAssistantRoutes(),
  createMarketingRoutes(),
  createAiDraftRoutes(),
  createDiscoveryRoutes(),
  createAgentRoutes(),
];
