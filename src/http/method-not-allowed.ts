import type { Context, Hono, NotFoundHandler } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import type { AppEnv } from "./env";
import { errorBody } from "./errors";

/** Methods a route can be registered for; `ALL` entries are middleware, not resources. */
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

interface RouteEntry {
  method: string;
  path: string;
}

/**
 * The methods each path answers, read once from the finished route table the first time a
 * request matches no route: a request that does match never gets here, so the hot path pays
 * nothing. A path served under other methods answers 405 with `Allow` (RFC 9110 15.5.6);
 * anything else stays the 404 it was.
 */
export function methodNotAllowed(app: Pick<Hono<AppEnv>, "routes">): NotFoundHandler<AppEnv> {
  let table: { router: TrieRouter<string>; methods: string[] } | undefined;
  const build = () => {
    const router = new TrieRouter<string>();
    const methods = new Set<string>();
    for (const { method, path } of app.routes as RouteEntry[]) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      router.add(method, path, method);
      methods.add(method);
    }
    return { router, methods: [...methods] };
  };
  return (c: Context<AppEnv>) => {
    table ??= build();
    const path = c.req.path;
    const allowed = table.methods.filter((method) => {
      const [matches] = table!.router.match(method, path);
      return matches.length > 0;
    });
    // hono answers HEAD with its GET route (without the body).
    if (allowed.includes("GET")) allowed.splice(allowed.indexOf("GET") + 1, 0, "HEAD");
    if (allowed.length === 0 || allowed.includes(c.req.method)) {
      return c.json(errorBody(404, "Not found"), 404);
    }
    c.header("Allow", allowed.join(", "));
    return c.json(
      errorBody(405, `Method ${c.req.method} is not allowed here; allowed: ${allowed.join(", ")}`),
      405,
    );
  };
}
