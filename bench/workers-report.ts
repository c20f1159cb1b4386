import { fmt, ms, table } from "./format";
import type { WorkersResult } from "./scenarios/workers";
import { SETTINGS } from "./settings";

const { aims: AIMS } = SETTINGS;

const verdict = (met: boolean) => (met ? "MET" : "MISSED");

export function renderWorkers(result: WorkersResult): string {
  const lines: string[] = [];
  lines.push(
    `Workers: size as \`wrangler deploy --dry-run\` uploads it (gzip = wrangler's figure, own = our gzip of the same files), aim < ${AIMS.workerGzipKiB} KiB gzipped; cold start in workerd (miniflare's), median of ${result.runs}`,
  );
  lines.push(
    `  cold start = new Miniflare() with the bundle to the first answer of GET ${result.path}: ready (workerd up, script compiled and run) + first answer (the isolate builds the app); script load = ready minus the empty Worker's ready (${ms(result.baseline.readyMs)} ms)`,
  );
  const rows = result.workers.map(({ size, coldStart, scriptLoadMs }) => [
    size.env,
    fmt(size.rawKiB, 1),
    fmt(size.gzipKiB, 1),
    fmt(size.checkedGzipKiB, 1),
    `< ${AIMS.workerGzipKiB} ${verdict(size.gzipKiB < AIMS.workerGzipKiB)}`,
    ms(coldStart.totalMs),
    ms(coldStart.readyMs),
    ms(scriptLoadMs),
    ms(coldStart.firstAnswerMs),
    ms(coldStart.warmMs),
    coldStart.status === 200 ? "200" : `${coldStart.status}!`,
  ]);
  rows.push([
    "(empty)",
    "",
    "",
    "",
    "",
    ms(result.baseline.totalMs),
    ms(result.baseline.readyMs),
    "0",
    ms(result.baseline.firstAnswerMs),
    ms(result.baseline.warmMs),
    String(result.baseline.status),
  ]);
  lines.push(
    table(
      [
        "worker",
        "raw KiB",
        "gzip KiB",
        "own gz",
        "aim",
        "cold ms",
        "ready",
        "script",
        "1st answer",
        "warm",
        "status",
      ],
      rows,
    ),
  );
  const missed = result.workers.filter(({ size }) => size.gzipKiB >= AIMS.workerGzipKiB);
  const largest = [...result.workers].sort((a, b) => b.size.gzipKiB - a.size.gzipKiB)[0];
  lines.push(
    missed.length === 0
      ? `  all ${result.workers.length} Workers under ${AIMS.workerGzipKiB} KiB gzipped: MET (largest ${largest?.size.env} ${fmt(largest?.size.gzipKiB ?? 0, 1)} KiB)`
      : `  over ${AIMS.workerGzipKiB} KiB gzipped: ${missed.map(({ size }) => size.env).join(", ")}: MISSED`,
  );
  return lines.join("\n");
}
