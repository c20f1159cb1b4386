import { FEATURES, type Feature } from "../../lib/plans";

/**
 * Seeded once; admins manage them afterwards (prices in minor units, CNY fen). `limits` are the
 * plan's quotas, enforced in SQL (migration 0013); a missing key is unlimited.
 */
export const DEFAULT_PLANS = [
  {
    code: "free",
    name: "Free",
    tier: 0,
    monthlyPrice: 0,
    monthlyCredits: 0,
    features: ["translate", "customers", "products", "quotations"],
    limits: { customers: 1_000, agent_runs_per_month: 0 },
    sortOrder: 0,
  },
  {
    code: "pro",
    name: "Pro",
    tier: 1,
    monthlyPrice: 9_900,
    monthlyCredits: 500,
    // Listed, not derived: a feature added later must not join a paid plan by itself.
    features: [
      "translate",
      "customers",
      "products",
      "quotations",
      "marketing",
      "discovery",
      "ai_assistant",
      "followup_engine",
    ] satisfies Feature[],
    limits: { customers: 20_000, agent_runs_per_month: 0 },
    sortOrder: 1,
  },
  {
    code: "business",
    name: "Business",
    tier: 2,
    monthlyPrice: 29_900,
    monthlyCredits: 2_000,
    // Every feature there is.
    features: FEATURES,
    limits: { agent_runs_per_month: 100 },
    sortOrder: 2,
  },
] as const;

export const DEFAULT_PACKAGES = [
  { name: "Starter 100", credits: 100, price: 1_900, sortOrder: 0 },
  { name: "Growth 500", credits: 500, price: 7_900, sortOrder: 1 },
  { name: "Scale 2000", credits: 2_000, price: 26_900, sortOrder: 2 },
] as const;

/** yearly = round(12 x monthly x (1 - discount)), in minor units (API.md). */
export function yearlyPrice(monthlyPrice: number, discount: number): number {
  return Math.round(12 * monthlyPrice * (1 - discount));
}
