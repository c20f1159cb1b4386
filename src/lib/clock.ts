export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The injected clock's now, as the ISO string SQL statements take. */
export const nowIso = (deps: { clock: Clock }) => deps.clock.now().toISOString();

/** A timestamp from a driver (Date, or string from raw SQL) as an ISO-8601 string. */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}
