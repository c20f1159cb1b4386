import { createRouter } from "../../http/router";
import { providerAdminRoutes } from "../provider-admin/routes";
import { searchProviderAdmin } from "./admin-service";
import { ProviderSchemas } from "./schemas";

/** Admin: search providers (CRUD, keys write-only). */
export function createSearchProviderAdminRoutes() {
  const router = createRouter();
  providerAdminRoutes(router, {
    paths: {
      list: "/api/v1/admin/search-providers",
      item: "/api/v1/admin/search-providers/{id}",
    },
    tags: ["Admin: search providers"],
    summaries: {
      list: "Search providers by name, filtered by kind and enabled (keys are never returned)",
      create: "Add a search provider; its API key is stored encrypted and is write-only",
      get: "One search provider",
      update: "Change a search provider (`api_key: null` clears the key; leaving it out keeps it)",
      delete: "Delete a search provider",
    },
    listDescription:
      "Discovery tries the enabled providers in the order of system config " +
      "`search.providers_order` (entries name a provider or a kind), then by name.",
    schemas: ProviderSchemas,
    admin: searchProviderAdmin,
  });
  return router;
}
