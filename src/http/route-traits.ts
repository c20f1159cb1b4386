import type { MiddlewareHandler } from "hono";

/**
 * What a route's middleware enforces, read by the OpenAPI description so the document says what
 * the server does: a middleware is marked once where it is defined, and every route using it is
 * described from the mark (http/contract.ts), including routes added later.
 */
export type RouteTrait = "auth" | "idempotency-key" | "rate-limited";

const traitsOf = new WeakMap<MiddlewareHandler, RouteTrait>();

export function markMiddleware<T extends MiddlewareHandler>(middleware: T, trait: RouteTrait): T {
  traitsOf.set(middleware, trait);
  return middleware;
}

/** Carried on a route's registered definition: its middleware list is not registered itself. */
export const ROUTE_TRAITS = Symbol("routeTraits");

type MiddlewareList = MiddlewareHandler | readonly MiddlewareList[] | undefined;

export function traitsOfMiddleware(middleware: MiddlewareList): Set<RouteTrait> {
  const traits = new Set<RouteTrait>();
  const visit = (entry: MiddlewareList) => {
    if (entry === undefined) return;
    if (typeof entry === "function") {
      const trait = traitsOf.get(entry);
      if (trait) traits.add(trait);
      return;
    }
    for (const inner of entry) visit(inner);
  };
  visit(middleware);
  return traits;
}
