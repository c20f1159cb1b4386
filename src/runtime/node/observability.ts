import type { RequestListener } from "node:http";
import type { Config } from "../../config";
import type { Metrics } from "../../ports";
import { createNodeMetrics, type MetricSources, withMetricsEndpoint } from "./metrics";
import { clusterMetricsText } from "./metrics-cluster";
import type { NodeTracing } from "./tracing";

/** What the Node server hooks in for `/metrics` (METRICS_TOKEN) and traces (OTEL_…). */
export interface Observability {
  /** For the runtime adapters; absent when neither is configured (the port stays a no-op). */
  readonly metrics?: Metrics;
  /** Gauges read at scrape time (pool, document queue, open agent runs). */
  watch(sources: MetricSources): void;
  /** The request listener with `/metrics` answered in front and each request traced. */
  wrap(listener: RequestListener): RequestListener;
  /** Flushes the spans still buffered. */
  stop(): Promise<void>;
}

const NOTHING = () => {};

/**
 * Metrics and traces as configured. OpenTelemetry is loaded only when an endpoint is set, so a
 * server without it never parses the SDK.
 */
export async function startObservability(config: Config): Promise<Observability> {
  const tracing: NodeTracing | undefined = config.OTEL_EXPORTER_OTLP_ENDPOINT
    ? (await import("./tracing")).startTracing({
        endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
        serviceName: config.OTEL_SERVICE_NAME,
        instanceId: config.INSTANCE_ID || undefined,
        traceQueries: Boolean(config.DATABASE_URL),
      })
    : undefined;
  const nameSpan = tracing
    ? (method: string, route: string) => tracing.nameRequest(method, route)
    : undefined;
  const token = config.METRICS_TOKEN;
  const counted = token ? createNodeMetrics(nameSpan) : undefined;
  const metrics: Metrics | undefined =
    counted ??
    (nameSpan && {
      observesRequests: true,
      request: nameSpan,
      charged: NOTHING,
      refunded: NOTHING,
      providerCall: NOTHING,
      taskRun: NOTHING,
    });
  const scrape = counted && clusterMetricsText(counted.registry);
  return {
    ...(metrics ? { metrics } : {}),
    watch: (sources) => counted?.watch(sources),
    wrap(listener) {
      const traced = tracing ? tracing.wrap(listener) : listener;
      return token && scrape ? withMetricsEndpoint(traced, token, scrape) : traced;
    },
    stop: async () => {
      await tracing?.stop();
    },
  };
}
