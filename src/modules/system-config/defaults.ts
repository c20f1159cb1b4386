/** Admin-editable settings (API.md "System config keys"), seeded once and never overwritten. */
export const DEFAULT_SYSTEM_CONFIG = {
  "ai.prompt":
    "You are a trade assistant for an export seller. Answer buyers' questions accurately, " +
    "politely and briefly, in the buyer's language. Never invent prices, stock or lead times.",
  "ai.quick_questions": [
    "How do I reply to a buyer asking for a lower price?",
    "Write a follow-up to a buyer who has not answered for two weeks",
    "What should a proforma invoice contain?",
    "Explain FOB, CIF and EXW to a new buyer",
  ],
  "ai.routing": {
    translate: [],
    chat: [],
    marketing: [],
    discovery_analysis: [],
    followup_draft: [],
    quotation_from_inquiry: [],
  },
  "credits.costs": {
    translate: 1,
    marketing: 3,
    chat: 1,
    discovery: 5,
    followup_draft: 1,
    quotation_from_inquiry: 2,
    agent_run: 10,
  },
  "search.providers_order": [],
  "customers.silence_days": 14,
  "referral.reward_days": 7,
  /** Referral rewards a referrer can earn per calendar month (UTC); the friend is always rewarded. */
  "referral.monthly_cap": 5,
  "trial.days": 7,
  "plans.yearly_discount": 0.15,
} as const satisfies Record<string, unknown>;

export type SystemConfigKey = keyof typeof DEFAULT_SYSTEM_CONFIG;

/**
 * Own keys only: `key in` would walk the prototype, so `__proto__` or `toString` from a URL
 * would pass as a known key and reach a schema lookup that is not there (a 500).
 */
export const isSystemConfigKey = (key: string): key is SystemConfigKey =>
  Object.hasOwn(DEFAULT_SYSTEM_CONFIG, key);
