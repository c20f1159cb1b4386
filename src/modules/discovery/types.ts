/** What a discovery search returns; the agent builds on the same shape. */
export interface DiscoveredCompany {
  name: string;
  website: string | null;
  country: string | null;
  /** Why this company may buy the product, from the search results (LLM analysis). */
  summary: string;
  /** 0-100: how well the company fits the product and market. */
  fit_score: number;
  contact: { email: string | null; phone: string | null };
  /** Result URLs the company was found in. */
  sources: string[];
}

export interface DiscoveryResult {
  product: string;
  market: string;
  /** The (at most 3) search queries that were run. */
  queries: string[];
  companies: DiscoveredCompany[];
  /** Search provider(s) and LLM provider that served it. */
  search_providers: string[];
  analysis_provider: string;
}
