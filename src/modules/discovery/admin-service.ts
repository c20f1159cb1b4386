import { createProviderAdmin } from "../provider-admin/service";
import { searchProviderTable } from "./queries/provider-admin";
import type { ProviderInput, ProviderPatchInput } from "./schemas";

/**
 * Admin CRUD of search providers, the provider admin the AI providers share
 * (src/modules/provider-admin/): keys write-only (encrypted, last 4 characters kept as a
 * hint), unique names (409), and every write with its `search_provider.*` row in
 * admin_audit_log in the same statement. Entries of `search.providers_order` naming a deleted
 * provider are then skipped.
 */
export const searchProviderAdmin = createProviderAdmin<
  typeof searchProviderTable.table,
  ProviderInput,
  ProviderPatchInput
>({
  ...searchProviderTable,
  audit: "search_provider",
  deleteFields: ["name", "kind", "base_url", "api_key", "enabled", "timeout_ms"],
  messages: {
    notFound: "Search provider not found",
    nameTaken: (name) => `A search provider named ${name} exists`,
    changed: "The search provider changed meanwhile; try again",
  },
  // A brave provider keeps its key (the Brave API needs one): the guard is in the statement.
  kindGuard: {
    kind: "brave",
    refuses: (patch) => patch.api_key === null,
    issue: { loc: ["body", "api_key"], msg: "A brave provider needs an API key", type: "custom" },
  },
});
