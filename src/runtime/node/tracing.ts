import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVICE_NAME,
} from "@opentelemetry/semantic-conventions";
import pg from "pg";

/** The span of the request this code runs for, and its route once the app has matched one. */
interface RequestTrace {
  readonly span: Span;
  route?: string;
}

export interface NodeTracing {
  /** Runs every request but the liveness probe under a server span. */
  wrap(listener: RequestListener): RequestListener;
  /** The app matched `route` for the current request: the span takes its name. */
  nameRequest(method: string, route: string): void;
  /** Sends the spans still buffered; the exporter is closed after. */
  stop(): Promise<void>;
}

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to …/v1/traces. */
  endpoint: string;
  serviceName: string;
  instanceId?: string | undefined;
  /** Child spans for every PostgreSQL statement (node-postgres only). */
  traceQueries: boolean;
}

/**
 * OpenTelemetry traces over OTLP/HTTP (JSON), batched (BatchSpanProcessor: a span costs the
 * request an object and a push; the export runs on a timer). The request's span is carried in an
 * AsyncLocalStorage rather than OTel's context manager: one store, read at the two places that
 * need it (the route the app matched, a database statement), and nothing for other code to pay.
 */
export function startTracing(options: TracingOptions): NodeTracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName,
      ...(options.instanceId ? { "service.instance.id": options.instanceId } : {}),
    }),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` }),
      ),
    ],
  });
  const tracer = provider.getTracer("trade-assistant-service");
  const current = new AsyncLocalStorage<RequestTrace>();
  const restoreQueries = options.traceQueries ? traceQueries(tracer, current) : undefined;

  const finish = (req: IncomingMessage, res: ServerResponse, request: RequestTrace) => {
    const { span, route } = request;
    const status = res.statusCode;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute(ATTR_HTTP_ROUTE, route);
    }
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    const requestId = res.getHeader("x-request-id");
    if (typeof requestId === "string") span.setAttribute("request.id", requestId);
    // A response cut before it finished is an error whatever its status said.
    if (status >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };

  return {
    wrap(listener) {
      return function tracedListener(req, res) {
        if (req.url === "/health") {
          listener(req, res);
          return;
        }
        const method = req.method ?? "GET";
        const span = tracer.startSpan(method, {
          kind: SpanKind.SERVER,
          attributes: { [ATTR_HTTP_REQUEST_METHOD]: method },
        });
        const request: RequestTrace = { span };
        res.once("close", () => finish(req, res, request));
        current.run(request, () => listener(req, res));
      };
    },
    nameRequest(_method, route) {
      const request = current.getStore();
      if (request) request.route = route;
    },
    async stop() {
      restoreQueries?.();
      await provider.shutdown();
    },
  };
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/** SELECT, INSERT, …: the span's name; the statement's text is never exported. */
function operationOf(statement: unknown): string {
  const text =
    typeof statement === "string" ? statement : (statement as { text?: unknown } | null)?.text;
  const word = typeof text === "string" ? /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(text) : null;
  return word ? word[1]!.toUpperCase() : "QUERY";
}

/**
 * Every statement a node-postgres client sends within a request becomes a child span of it.
 * pg.Client.prototype.query is the one place every statement passes (the pool's, drizzle's,
 * a transaction's); the wrapper is installed while tracing runs and does nothing outside a
 * request. Returns the undo.
 */
function traceQueries(
  tracer: ReturnType<BasicTracerProvider["getTracer"]>,
  current: AsyncLocalStorage<RequestTrace>,
): () => void {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function tracedQuery(this: pg.Client, ...args: unknown[]) {
    const request = current.getStore();
    // A submittable (a cursor, a stream) ends on its own events; it goes untraced.
    const first = args[0] as { submit?: unknown } | null;
    if (!request || typeof first?.submit === "function") return original.apply(this, args);
    const span = tracer.startSpan(
      operationOf(args[0]),
      { kind: SpanKind.CLIENT, attributes: { "db.system.name": "postgresql" } },
      trace.setSpan(ROOT_CONTEXT, request.span),
    );
    const end = (error: unknown) => {
      if (error) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: unknown, ...rest: unknown[]) => {
        end(error);
        return (callback as (...a: unknown[]) => unknown)(error, ...rest);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(() => end(null), end);
    else end(null);
    return result;
  };
  return () => {
    proto.query = original;
  };
}
