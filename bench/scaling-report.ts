import { fmt, ms, table } from "./format";
import { CONNECTIONS, DURATION_S, RUNS } from "./load";
import type { ScalingResult, ScalingRow } from "./scenarios/scaling";

const verdict = (met: boolean) => (met ? "MET" : "MISSED");

/** The app against its ceiling and against Fastify, per route and process count. */
export function renderScaling(result: ScalingResult): string {
  const lines = [
    `Worker scaling (issue #25 item 3): autocannon, ${CONNECTIONS} connections, median of ${RUNS} x ${DURATION_S} s, interleaved`,
    "  app = WEB_CONCURRENCY processes (node:cluster); ceiling = bare node:http + the same statement, as many processes on one port; Fastify = Fastify 5 + pg + jose, the app's statements, as many processes",
    `  Fastify answers as the app: /me ${result.fastifySameMe ? "same keys" : "DIFFERENT"}, list ${result.fastifySameList ? "same body" : "DIFFERENT"}; aim: the app ahead of Fastify on every route`,
  ];
  const one = (route: ScalingRow["route"]) =>
    result.rows.find((r) => r.route === route && r.processes === 1);
  const rows = result.rows.map((row) => {
    const base = one(row.route);
    return [
      `${row.route} x${row.processes}`,
      fmt(row.app.rps),
      ms(row.app.p99Ms),
      fmt(row.ceiling.rps),
      fmt(row.app.rps / row.ceiling.rps, 2),
      fmt(row.fastify.rps),
      ms(row.fastify.p99Ms),
      fmt(row.app.rps / row.fastify.rps, 2),
      verdict(row.app.rps > row.fastify.rps),
      base && row.processes > 1 ? fmt(row.app.rps / base.app.rps, 2) : "",
      base && row.processes > 1 ? fmt(row.ceiling.rps / base.ceiling.rps, 2) : "",
    ];
  });
  lines.push(
    table(
      [
        "route x processes",
        "app rps",
        "p99 ms",
        "ceiling rps",
        "app/ceiling",
        "Fastify rps",
        "p99 ms",
        "app/Fastify",
        "ahead",
        "app x2/x1",
        "ceiling x2/x1",
      ],
      rows,
    ),
  );
  const bad = result.rows.flatMap((row) =>
    [row.app, row.ceiling, row.fastify]
      .filter((s) => s.non2xx + s.errors > 0)
      .map((s) => `${s.name}: ${s.non2xx} non-2xx, ${s.errors} errors`),
  );
  if (bad.length > 0) lines.push(`  not all answers were 2xx: ${bad.join("; ")}`);
  lines.push(
    `  runs (rps): ${result.rows
      .map(
        (row) =>
          `${row.route} x${row.processes} ${[row.app, row.ceiling, row.fastify].map((s) => s.runs.map((r) => fmt(r.rps)).join("/")).join(" | ")}`,
      )
      .join("; ")}`,
  );
  return lines.join("\n");
}
