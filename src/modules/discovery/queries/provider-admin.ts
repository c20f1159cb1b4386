import { searchProviders } from "../../../db/schema";

/** The search providers' table for the provider admin (provider-admin/): no extra columns. */
export const searchProviderTable = {
  table: searchProviders,
  extraColumns: [],
  extraValues: () => [],
};
