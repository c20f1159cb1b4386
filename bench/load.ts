import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";

export const CONNECTIONS = 50;
export const DURATION_S = 5;
export const WARMUP_S = 2;
export const RUNS = 3;

export interface LoadTarget {
  /** Label used in the report. */
  name: string;
  url: string;
  method?: "GET" | "POST" | "PATCH";
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request is built: lets a run vary headers and body per request. */
  setupRequest?: autocannon.Request["setupRequest"];
}

interface RunStats {
  rps: number;
  /** Responses with a 2xx status per second. */
  okRps: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

export interface LoadSummary {
  name: string;
  runs: RunStats[];
  /** Median of the runs (by rps; p99 is the median of the p99s). */
  rps: number;
  okRps: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function runLoad(target: LoadTarget, durationS: number): Promise<RunStats> {
  const request: autocannon.Request = {
    method: target.method ?? "GET",
    path: new URL(target.url).pathname,
    headers: target.headers,
    body: target.body,
  };
  if (target.setupRequest) request.setupRequest = target.setupRequest;
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: durationS,
    pipelining: 1,
    timeout: 10,
    requests: [request],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = count ?? 0;
  }
  const ok = Object.entries(statusCodes)
    .filter(([code]) => code.startsWith("2"))
    .reduce((sum, [, count]) => sum + count, 0);
  const answered = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  return {
    rps: result.requests.average,
    okRps: answered ? (result.requests.average * ok) / answered : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

function summarize(name: string, runs: RunStats[]): LoadSummary {
  return {
    name,
    runs,
    rps: median(runs.map((r) => r.rps)),
    okRps: median(runs.map((r) => r.okRps)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}

/**
 * Warms every target up once, then runs each `RUNS` times, interleaved (A1 B1 A2 B2 A3 B3):
 * on a shared, noisy machine a slow minute then hits the app and its ceiling alike.
 */
export async function measureInterleaved(
  targets: LoadTarget[],
  log: (line: string) => void,
  { pauseMs = 250 } = {},
): Promise<LoadSummary[]> {
  for (const target of targets) {
    await runLoad(target, WARMUP_S);
    await sleep(pauseMs);
  }
  const runs = targets.map(() => [] as RunStats[]);
  for (let i = 0; i < RUNS; i++) {
    for (const [index, target] of targets.entries()) {
      const stats = await runLoad(target, DURATION_S);
      await sleep(pauseMs);
      runs[index]!.push(stats);
      const bad = stats.non2xx + stats.errors + stats.timeouts;
      const codes = Object.entries(stats.statusCodes)
        .map(([code, count]) => `${code}: ${count}`)
        .join(", ");
      log(
        `  ${target.name} run ${i + 1}/${RUNS}: ${stats.rps.toFixed(0)} req/s, p99 ${stats.p99Ms} ms` +
          (bad ? `  (status ${codes}; errors ${stats.errors}, timeouts ${stats.timeouts})` : ""),
      );
    }
  }
  return targets.map((target, index) => summarize(target.name, runs[index]!));
}
