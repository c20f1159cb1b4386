import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";

/** One span as the collector decoded it, attributes flattened to plain values. */
interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** 2 is ERROR. */
  statusCode: number;
  /** The resource's attributes (service.name, …). */
  resource: Record<string, string | number | boolean>;
}

export interface FakeOtlpCollector {
  /** What to set as OTEL_EXPORTER_OTLP_ENDPOINT (the exporter appends /v1/traces). */
  url: string;
  spans: CollectedSpan[];
  /** Requests that were not OTLP/HTTP JSON on /v1/traces (the test asserts there are none). */
  rejected: string[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface KeyValue {
  key: string;
  value: AnyValue;
}

function flatten(attributes: KeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of attributes ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
  }
  return out;
}

/**
 * An OTLP/HTTP collector on 127.0.0.1 that takes what @opentelemetry/exporter-trace-otlp-http
 * sends (JSON, ExportTraceServiceRequest: resourceSpans → scopeSpans → spans, ids as hex) and
 * keeps the spans. Protobuf bodies are refused (415), so an exporter that switched encoding
 * shows up as `rejected`, not as spans silently missing.
 */
export async function startFakeOtlpCollector(): Promise<FakeOtlpCollector> {
  const spans: CollectedSpan[] = [];
  const rejected: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (req.headers["content-encoding"] === "gzip") body = gunzipSync(body);
    const type = req.headers["content-type"] ?? "";
    if (req.method !== "POST" || req.url !== "/v1/traces" || !type.startsWith("application/json")) {
      rejected.push(`${req.method} ${req.url} ${type}`);
      res.writeHead(req.url === "/v1/traces" ? 415 : 404).end();
      return;
    }
    const request = JSON.parse(body.toString("utf8")) as {
      resourceSpans?: {
        resource?: { attributes?: KeyValue[] };
        scopeSpans?: {
          spans?: {
            traceId: string;
            spanId: string;
            parentSpanId?: string;
            name: string;
            kind: number;
            attributes?: KeyValue[];
            status?: { code?: number };
          }[];
        }[];
      }[];
    };
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = flatten(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind,
            attributes: flatten(span.attributes),
            statusCode: span.status?.code ?? 0,
            resource,
          });
        }
      }
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      rejected.push(`undecodable: ${String(error)}`);
      res.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    rejected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
