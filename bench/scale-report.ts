import { fmt, ms, table } from "./format";
import {
  SCALE_CONNECTIONS,
  SCALE_HEAP_PROBES,
  SCALE_LOAD_S,
  SCALE_OVERVIEW_CALLS,
  SCALE_RUNS,
  type ScaleResult,
  type ScaleStep,
} from "./scenarios/scale";
import { SETTINGS } from "./settings";

/** Issue #13 item 3's aims (the lead moves them into bench/settings.ts). */
const SCALE_AIMS = SETTINGS.aims.scale;

const HEAP_PROBE_TEXT = SCALE_HEAP_PROBES.map((f) => `${f * 100}%`).join(" / ");

const verdict = (met: boolean) => (met ? "MET" : "MISSED");
const x = (value: number, base: number) => `${fmt(value / base, 2)}x`;
const mbOf = (kb: number) => fmt(kb / 1024, 1);

function stepAt(result: ScaleResult, customers: number): ScaleStep | undefined {
  return result.steps.find((s) => s.customers === customers);
}

function figureTable(result: ScaleResult, base: ScaleStep): string {
  const rows: string[][] = [];
  // `floor`: a base under it is noise, so no growth factor is shown (the verdicts say why).
  const add = (
    name: string,
    value: (s: ScaleStep) => number,
    unit: (v: number) => string,
    floor = Number.NEGATIVE_INFINITY,
  ) => {
    const growth = (s: ScaleStep) => (value(base) < floor ? "-" : x(value(s), value(base)));
    rows.push([name, ...result.steps.flatMap((s) => [unit(value(s)), growth(s)])]);
  };
  const whole = (v: number) => fmt(v);
  add("list search p50 ms", (s) => s.list.search.p50Ms, ms);
  add("list search p99 ms", (s) => s.list.search.p99Ms, ms);
  add("list first page p50 ms", (s) => s.list.first.p50Ms, ms);
  add("list first page p99 ms", (s) => s.list.first.p99Ms, ms);
  add("health overview p50 ms", (s) => s.overview.p50Ms, ms);
  add("export csv ms", (s) => s.exports.csv.ms, whole);
  add("export csv RSS peak MB", (s) => s.exports.csv.peakGrowthKb, mbOf);
  add("export csv held MB", (s) => s.exports.csv.retainedKb, mbOf, SCALE_AIMS.exportMemoryFloorKb);
  add("export xlsx ms", (s) => s.exports.xlsx.ms, whole);
  add("export xlsx RSS peak MB", (s) => s.exports.xlsx.peakGrowthKb, mbOf);
  add(
    "export xlsx held MB",
    (s) => s.exports.xlsx.retainedKb,
    mbOf,
    SCALE_AIMS.exportMemoryFloorKb,
  );
  const header = [
    "",
    ...result.steps.flatMap((s) => [s.customers.toLocaleString("en-US"), "growth"]),
  ];
  return table(header, rows)
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

function planLines(result: ScaleResult): string[] {
  const lines = ["  statements (EXPLAIN ANALYZE, BUFFERS, as the app sends them):"];
  for (const s of result.steps) {
    for (const [name, plan] of Object.entries(s.plans)) {
      const count =
        plan.matchesMs === null
          ? ""
          : ` (reading the matches for the total ${ms(plan.matchesMs)} ms)`;
      lines.push(
        `    ${s.customers.toLocaleString("en-US").padStart(7)} ${name.padEnd(10)} ${ms(plan.executionMs).padStart(7)} ms${count}, shared hit ${plan.sharedHit} read ${plan.sharedRead}: ${plan.shape}`,
      );
    }
  }
  return lines;
}

/** The list's p99 growth from the first step to 100k, per kind of page. */
const listGrowth = (base: ScaleStep, at100k: ScaleStep, kind: "search" | "first") =>
  at100k.list[kind].p99Ms / base.list[kind].p99Ms;

function listVerdicts(base: ScaleStep, at100k: ScaleStep): string[] {
  const lines: string[] = [];
  for (const kind of ["search", "first"] as const) {
    const growth = listGrowth(base, at100k, kind);
    const met = growth <= SCALE_AIMS.listP99Growth;
    lines.push(
      `  list ${kind === "search" ? "search (status + q)" : "first page"} p99 at 100k: ${ms(at100k.list[kind].p99Ms)} ms, ${fmt(growth, 2)}x of 1k (aim <= ${SCALE_AIMS.listP99Growth}x)  ${verdict(met)}`,
    );
    const why = kind === "search" && !met ? listSearchWhy(base, at100k) : undefined;
    if (why) lines.push(`    why: ${why}`);
  }
  return lines;
}

/**
 * Judged on what the export holds (the heap after a full collection part-way through the
 * download), not on the RSS peak: that peak is garbage V8 has not collected yet, and how much it
 * lets pile up is set by its old-space limit (the process's history), not by the row count. The
 * RSS peak is printed beside it with the heap before and after the collection, so a reader sees
 * which of the two it is.
 */
/** What an export holds at 100k over what it holds at 10k, and the floor it divides by. */
function exportGrowth(
  base: ScaleStep,
  at10k: ScaleStep,
  at100k: ScaleStep,
  format: "csv" | "xlsx",
) {
  const noiseKb = Math.max(
    ...base.exports[format].retainedRuns.flatMap((r) => r.probesKb.map(Math.abs)),
  );
  const floorKb = Math.max(SCALE_AIMS.exportMemoryFloorKb, noiseKb);
  const small = at10k.exports[format];
  const large = at100k.exports[format];
  return { floorKb, growth: Math.max(large.retainedKb, 0) / Math.max(small.retainedKb, floorKb) };
}

/** Each scale aim with its figure: the report's verdict lines and the bench summary's rows. */
/** What the searched list's growth is made of: its total's count against the rest. */
function listSearchWhy(base: ScaleStep, at100k: ScaleStep): string | undefined {
  const plan = at100k.plans.listSearch;
  const basePlan = base.plans.listSearch;
  if (plan.matchesMs === null || basePlan.matchesMs === null) return undefined;
  const rest = (p: typeof plan) => Math.max(0, p.executionMs - (p.matchesMs ?? 0));
  return `the page carries an exact total, so every match is read, and the matches grow with the customers: reading them took ${ms(plan.matchesMs)} of the statement's ${ms(plan.executionMs)} ms at 100k (${ms(basePlan.matchesMs)} of ${ms(basePlan.executionMs)} ms at 1k); the rest ${ms(rest(plan))} ms vs ${ms(rest(basePlan))} ms`;
}

export function scaleVerdicts(result: ScaleResult) {
  const [base] = result.steps;
  const at10k = stepAt(result, 10_000);
  const at100k = stepAt(result, 100_000);
  if (!base || !at10k || !at100k) return undefined;
  const growth = {
    listSearch: listGrowth(base, at100k, "search"),
    listFirst: listGrowth(base, at100k, "first"),
    csv: exportGrowth(base, at10k, at100k, "csv").growth,
    xlsx: exportGrowth(base, at10k, at100k, "xlsx").growth,
  };
  return {
    growth,
    overview10kMs: at10k.overview.p50Ms,
    listMet: Math.max(growth.listSearch, growth.listFirst) <= SCALE_AIMS.listP99Growth,
    listWhy: listSearchWhy(base, at100k),
    overviewMet: at10k.overview.p50Ms < SCALE_AIMS.overview10kMs,
    exportMet: Math.max(growth.csv, growth.xlsx) <= SCALE_AIMS.exportMemoryGrowth,
  };
}

function exportVerdicts(base: ScaleStep, at10k: ScaleStep, at100k: ScaleStep): string[] {
  const lines: string[] = [];
  for (const format of ["csv", "xlsx"] as const) {
    const small = at10k.exports[format];
    const large = at100k.exports[format];
    const { floorKb, growth } = exportGrowth(base, at10k, at100k, format);
    const met = growth <= SCALE_AIMS.exportMemoryGrowth;
    lines.push(
      `  export ${format} memory held: +${mbOf(small.retainedKb)} MB at 10k, +${mbOf(large.retainedKb)} MB at 100k, ${fmt(growth, 2)}x for 10x the rows (flat: aim <= ${SCALE_AIMS.exportMemoryGrowth}x)  ${verdict(met)}`,
      `    held = heap + external after a full GC at ${HEAP_PROBE_TEXT} of a download, minus before it (median); divided by at least ${mbOf(floorKb)} MB, the probes' widest scatter at ${base.customers.toLocaleString("en-US")} rows (${mbOf(base.exports[format].bytes / 1024)} MB exported) or one batch`,
      `    RSS peak +${mbOf(small.peakGrowthKb)} MB at 10k, +${mbOf(large.peakGrowthKb)} MB at 100k (${fmt(large.peakGrowthKb / Math.max(1, small.peakGrowthKb), 2)}x): garbage, not rows held: at 100k the heap was ${mbOf(large.heapBeforeGcKb)} MB before the forced GC and ${mbOf(large.heapAfterGcKb)} MB after (${mbOf(small.heapBeforeGcKb)} / ${mbOf(small.heapAfterGcKb)} MB at 10k); V8 collects it when its old space reaches a limit set by the process's history`,
    );
  }
  return lines;
}

export function renderScale(result: ScaleResult): string {
  const [base] = result.steps;
  if (!base) return "Scale: no steps measured";
  const at10k = stepAt(result, 10_000);
  const at100k = stepAt(result, 100_000);
  const lines = [
    `Scale: one user's customers at ${result.steps.map((s) => s.customers.toLocaleString("en-US")).join(" / ")} (seeded in SQL), through the app on PostgreSQL ${result.pgVersion}; median of ${SCALE_RUNS} runs; growth = value / value at ${base.customers.toLocaleString("en-US")}`,
    `  list: ${SCALE_CONNECTIONS} connections x ${SCALE_LOAD_S} s per run; health overview: p50 of ${SCALE_OVERVIEW_CALLS} sequential calls per run; export: one download per run, RSS peak = app VmHWM${result.hwmReset ? " (reset before each run)" : " (not resettable: sampled RSS)"} minus RSS before; held = heap + external after a full GC forced at ${HEAP_PROBE_TEXT} of a download (median; ${SCALE_RUNS} more runs) minus after one before it`,
    figureTable(result, base),
    ...planLines(result),
  ];
  if (at100k) lines.push(...listVerdicts(base, at100k));
  if (at10k) {
    lines.push(
      `  health overview at 10k: ${ms(at10k.overview.p50Ms)} ms (aim < ${SCALE_AIMS.overview10kMs} ms)  ${verdict(at10k.overview.p50Ms < SCALE_AIMS.overview10kMs)}`,
    );
  }
  if (at10k && at100k) lines.push(...exportVerdicts(base, at10k, at100k));
  return lines.join("\n");
}
