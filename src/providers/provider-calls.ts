/**
 * What a provider client counts its calls with: the `providerCall` of the metrics port
 * (src/ports.ts), named here so the clients, which the port names in turn, need not import it.
 */
export interface ProviderCalls {
  /** One provider attempt and how it ended (ok, unusable, timeout, error; refused for payments). */
  providerCall(provider: string, task: string, outcome: string): void;
}

/**
 * Runs one provider call and counts it: `ok` only once its answer proved usable (`fn` throws on
 * an unusable one), else the outcome `outcomeOf` reads off the error. No `metrics`: not counted.
 */
export async function countedCall<T>(
  metrics: ProviderCalls | undefined,
  provider: string,
  task: string,
  outcomeOf: (error: unknown) => string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    const value = await fn();
    metrics?.providerCall(provider, task, "ok");
    return value;
  } catch (error) {
    metrics?.providerCall(provider, task, outcomeOf(error));
    throw error;
  }
}
