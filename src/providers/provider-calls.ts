/**
 * What a provider client counts its calls with: the `providerCall` of the metrics port
 * (src/ports.ts), named here so the clients, which the port names in turn, need not import it.
 */
export interface ProviderCalls {
  /** One provider attempt and how it ended (ok, unusable, timeout, error; refused for payments). */
  providerCall(provider: string, task: string, outcome: string): void;
}
