import type { Deps } from "../../deps";
import type { DiscoveryResult } from "./types";

/**
 * Runs a discovery search: at most 3 web-search queries for the product in the market, over the
 * configured search providers, then an LLM analysis (task `discovery_analysis`) of the results
 * into companies; bounded to 120 s in all. Not billed here: the route and the agent bill.
 * (Being implemented; the signature is the contract the agent builds on.)
 */
export async function runDiscovery(
  _deps: Deps,
  _input: { product: string; market: string; maxCompanies?: number },
): Promise<DiscoveryResult> {
  throw new Error("runDiscovery is not implemented yet");
}
