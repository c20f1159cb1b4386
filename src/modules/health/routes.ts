import { createRoute } from "@hono/zod-openapi";
import { errorResponse } from "../../http/errors";
import { createRouter } from "../../http/router";
import { type Dependency, outageLog } from "../../lib/logger";
import type { RateLimitRule } from "../../providers/ratelimit/types";
import { HealthSchema, NotReadySchema } from "./schemas";

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  tags: ["Operations"],
  summary: "Liveness: the process answers",
  responses: {
    200: { description: "Alive", content: { "application/json": { schema: HealthSchema } } },
  },
});

const readyRoute = createRoute({
  method: "get",
  path: "/health/ready",
  tags: ["Operations"],
  summary: "Readiness: the database and the rate limiter answer",
  responses: {
    200: { description: "Ready", content: { "application/json": { schema: HealthSchema } } },
    503: errorResponse(NotReadySchema, "A dependency is unreachable; `checks` names which"),
  },
});

/** A budget no probe can exhaust: the point is the round trip to the limiter's store. */
const PROBE_RULE: RateLimitRule = {
  name: "health-probe",
  points: 1_000_000_000,
  durationSeconds: 1,
  failClosed: true,
};
/** A load balancer's probe must answer even when a dependency hangs instead of refusing. */
const CHECK_TIMEOUT_MS = 3000;

async function check(run: () => Promise<unknown>): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("no answer in time")), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([run(), timeout]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "failed";
  } finally {
    clearTimeout(timer);
  }
}

const NAMES = { database: "Database", limiter: "Rate limiter" } as const;

export function createHealthRoutes() {
  const router = createRouter();
  router.openapi(healthRoute, (c) => c.json({ status: "ok" as const }, 200));
  router.openapi(readyRoute, async (c) => {
    const deps = c.get("deps");
    const [database, limiter] = await Promise.all([
      check(() => deps.database.ping()),
      check(() => deps.limiter.consume(PROBE_RULE, "ready")),
    ]);
    const failures = { database, limiter };
    const outages = outageLog(deps.logger);
    const now = deps.clock.now().getTime();
    const down: Dependency[] = [];
    for (const dependency of ["database", "limiter"] as const) {
      const cause = failures[dependency];
      if (cause === undefined) outages.up(dependency, now);
      else {
        down.push(dependency);
        outages.down(dependency, now, { cause, path: c.req.path });
      }
    }
    if (down.length === 0) return c.json({ status: "ok" as const }, 200);
    const names = down.map((d) => NAMES[d]);
    const detail = `${names.join(" and ").replace(/ and R/, " and r")} ${down.length > 1 ? "are" : "is"} unreachable`;
    return c.json(
      {
        detail,
        code: "service_unavailable" as const,
        checks: {
          database: database === undefined ? ("ok" as const) : ("unavailable" as const),
          limiter: limiter === undefined ? ("ok" as const) : ("unavailable" as const),
        },
      },
      503,
    );
  });
  return router;
}
