import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { type Database, queryRows } from "../../db/client";
import type { DocumentRenderer } from "../../modules/quotations/documents";
import type { Metrics } from "../../ports";

/** Seconds; prom-client's defaults, which span a cached read to a slow AI call. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** Node's parser takes any token as a method; a label takes only these. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

interface Series {
  readonly labels: Readonly<Record<string, string>>;
  /** Per bucket, plus one past the last bound (+Inf); cumulated when read. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** prom-client's histogram, in the JSON shape its registries print and aggregate. */
function histogramValues(name: string, series: Iterable<Series>) {
  const values: { labels: Record<string, string | number>; value: number; metricName: string }[] =
    [];
  for (const s of series) {
    let cumulated = 0;
    for (let i = 0; i <= BUCKETS.length; i++) {
      cumulated += s.counts[i]!;
      const le = i < BUCKETS.length ? BUCKETS[i]! : "+Inf";
      values.push({ labels: { ...s.labels, le }, value: cumulated, metricName: `${name}_bucket` });
    }
    values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${name}_sum` });
    values.push({ labels: { ...s.labels }, value: s.count, metricName: `${name}_count` });
  }
  return values;
}

/**
 * Request counts and latency, kept in plain arrays: prom-client hashes a label object on every
 * observe, which /me would pay on each request. Here a request is two Map lookups by strings
 * the app already holds, an index and three additions; the series are printed at scrape time.
 */
class RequestSeries {
  private readonly byRoute = new Map<string, Map<string, (Series | undefined)[]>>();

  observe(method: string, route: string, status: number, seconds: number) {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    const known = METHODS.has(method) ? method : "OTHER";
    let classes = byMethod.get(known);
    if (!classes) {
      classes = [];
      byMethod.set(known, classes);
    }
    const index = Math.min(4, Math.max(0, Math.floor(status / 100) - 1));
    let series = classes[index];
    if (!series) {
      series = {
        labels: { method: known, route, status_class: STATUS_CLASSES[index]! },
        counts: new Float64Array(BUCKETS.length + 1),
        sum: 0,
        count: 0,
      };
      classes[index] = series;
    }
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  *all(): Generator<Series> {
    for (const byMethod of this.byRoute.values()) {
      for (const classes of byMethod.values()) {
        for (const series of classes) if (series) yield series;
      }
    }
  }
}

/** What is read at scrape time rather than counted. */
export interface MetricSources {
  database?: Database;
  documents?: DocumentRenderer | null;
}

export interface NodeMetrics extends Metrics {
  readonly registry: Registry;
  /** Pool, document queue and waiting agent runs and discovery jobs, read when scraped. */
  watch(sources: MetricSources): void;
}

/**
 * The Node adapter of the metrics port on its own registry (so a test process or a second
 * server never collides with prom-client's global one), with the process's default metrics.
 * `onRequest` also sees each request (tracing names its span by the route pattern).
 */
export function createNodeMetrics(
  onRequest?: (method: string, route: string, status: number) => void,
): NodeMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestSeries();
  const histogram = (name: string, help: string) => ({
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    get: async () => ({
      name,
      help,
      type: "histogram",
      aggregator: "sum",
      values: histogramValues(name, requests.all()),
    }),
  });
  registry.registerMetric(
    histogram(
      "http_request_duration_seconds",
      "Requests through the app by method, route pattern and status class, and their time",
    ) as never,
  );
  const counter = (name: string, help: string, labelNames: string[]) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const charges = counter("credits_charges_total", "Charges that took credits", ["operation"]);
  const charged = counter("credits_charged_total", "Credits charged", ["operation"]);
  const refunds = counter("credits_refunds_total", "Charges given back", ["operation"]);
  const refunded = counter("credits_refunded_total", "Credits given back", ["operation"]);
  const providerCalls = counter(
    "provider_calls_total",
    "Provider attempts (AI, machine translation, payments) by provider, task and outcome",
    ["provider", "task", "outcome"],
  );
  const taskDuration = new Histogram({
    name: "scheduled_task_duration_seconds",
    help: "Scheduled task runs by task and outcome (ok, failed), and their time",
    labelNames: ["task", "outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const taskLastSuccess = new Gauge({
    name: "scheduled_task_last_success_timestamp_seconds",
    help: "When each scheduled task last succeeded (Unix seconds)",
    labelNames: ["task"],
    registers: [registry],
    aggregator: "max",
  });

  return {
    registry,
    observesRequests: true,
    request(method, route, status, seconds) {
      requests.observe(method, route, status, seconds);
      onRequest?.(method, route, status);
    },
    charged(operation, credits) {
      charges.inc({ operation });
      charged.inc({ operation }, credits);
    },
    refunded(operation, credits, count = 1) {
      if (count <= 0) return;
      refunds.inc({ operation }, count);
      // Created at 0 even when the amount is unknown, so the series exists beside its count.
      refunded.inc({ operation }, credits ?? 0);
    },
    providerCall(provider, task, outcome) {
      providerCalls.inc({ provider, task, outcome });
    },
    taskRun(task, seconds, ok) {
      taskDuration.observe({ task, outcome: ok ? "ok" : "failed" }, seconds);
      if (ok) taskLastSuccess.set({ task }, Date.now() / 1000);
    },
    watch(sources) {
      watchSources(registry, sources);
    },
  };
}

function watchSources(registry: Registry, { database, documents }: MetricSources) {
  const pool = database?.poolStats;
  if (pool) {
    new Gauge({
      name: "db_pool_connections",
      help: "PostgreSQL pool connections by state (in_use, idle)",
      labelNames: ["state"],
      registers: [registry],
      collect() {
        const { total, idle } = pool();
        this.set({ state: "in_use" }, total - idle);
        this.set({ state: "idle" }, idle);
      },
    });
    new Gauge({
      name: "db_pool_waiting",
      help: "Queries waiting for a PostgreSQL pool connection",
      registers: [registry],
      collect() {
        this.set(pool().waiting);
      },
    });
  }
  const queue = documents?.queueDepth;
  if (queue) {
    new Gauge({
      name: "document_queue_depth",
      help: "Quotation documents waiting for a document thread",
      registers: [registry],
      collect() {
        this.set(queue());
      },
    });
  }
  if (database) {
    openWorkGauge(registry, database, "agent_runs_open", "Agent runs", "agent_pipelines");
    openWorkGauge(registry, database, "discovery_jobs_open", "Discovery jobs", "discovery_jobs");
  }
}

/**
 * A gauge of a leased-work table's rows queued or running, by status, read at scrape time under
 * the table's partial index on those statuses (agent_pipelines_open_idx,
 * discovery_jobs_open_idx): cheap at any table size.
 */
function openWorkGauge(
  registry: Registry,
  database: Database,
  name: string,
  what: string,
  table: "agent_pipelines" | "discovery_jobs",
) {
  new Gauge({
    name,
    help: `${what} queued or running (the whole database: every worker reads the same)`,
    labelNames: ["status"],
    registers: [registry],
    // Every worker counts the same rows: the cluster's answer is one worker's, not the sum.
    aggregator: "max",
    async collect() {
      const rows = await queryRows<{ status: string; count: string | number }>(
        database.db,
        sql`select status, count(*) as count from ${sql.identifier(table)}
            where status in ('queued', 'running') group by status`,
      ).catch(() => null);
      if (!rows) return;
      this.set({ status: "queued" }, 0);
      this.set({ status: "running" }, 0);
      for (const row of rows) this.set({ status: row.status }, Number(row.count));
    },
  });
}

const METRICS_HEADERS = {
  "content-type": Registry.PROMETHEUS_CONTENT_TYPE,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};
const UNAUTHORIZED_BODY = JSON.stringify({ detail: "Unauthorized" });

const digest = (value: string) => createHash("sha256").update(value).digest();

/** `Bearer <token>`, compared as digests: equal lengths, so neither length nor bytes leak. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), expected);
}

/**
 * `GET /metrics` answered beside the app, as /health is: it is operational, not part of the
 * API (no OpenAPI entry, no rate limit, no request metrics of its own). Only with the token;
 * any other path goes to `next`.
 */
export function withMetricsEndpoint(
  next: RequestListener,
  token: string,
  text: () => Promise<string>,
): RequestListener {
  const expected = digest(token);
  return function metricsListener(req: IncomingMessage, res: ServerResponse) {
    if (req.url !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      next(req, res);
      return;
    }
    if (!bearerMatches(req.headers.authorization, expected)) {
      res.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": 'Bearer realm="metrics"',
        "cache-control": "no-store",
      });
      res.end(UNAUTHORIZED_BODY);
      return;
    }
    text().then(
      (body) => {
        res.writeHead(200, METRICS_HEADERS);
        res.end(req.method === "HEAD" ? undefined : body);
      },
      () => {
        res.writeHead(503, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ detail: "Metrics unavailable" }));
      },
    );
  };
}
