/**
 * What an agent run's stages cost (ADR 0108). A run is billed for four stages (search,
 * analysis, outreach, save), an equal share of its price each, rounded so that the stages
 * started cost price - floor(price * stages not started / 4): a cancelled run gets the rest
 * back (cancel.ts), and a run with `max_credits` below its price stops at the stage boundary
 * where the next stage would pass it.
 */
export const BILLED_STAGES = 4;

/** What the first `started` billed stages of a run priced `price` cost. */
export function stagesCost(price: number, started: number): number {
  const left = BILLED_STAGES - Math.min(Math.max(started, 0), BILLED_STAGES);
  return price - Math.floor((price * left) / BILLED_STAGES);
}

/** A run's price and what was charged for it (the price, or max_credits when lower). */
export interface RunBudget {
  price: number;
  charged: number;
}

/** The budget of a run with max_credits; null: none (every stage is covered). */
export function runBudget(run: { price: number | null; max_credits: number | null }) {
  if (run.price === null || run.max_credits === null) return null;
  return { price: run.price, charged: Math.min(run.price, run.max_credits) } as RunBudget;
}

/** Whether the charge covers the stages up to the `started`-th one. */
export function covers(budget: RunBudget | null, started: number): boolean {
  return budget === null || stagesCost(budget.price, started) <= budget.charged;
}

/** What goes back when the run ends having started `started` stages. */
export function unusedCredits(
  run: { price: number | null; max_credits: number | null },
  charged: number,
  started: number,
): number {
  const price = run.price ?? charged;
  return Math.max(0, charged - Math.min(charged, stagesCost(price, started)));
}
