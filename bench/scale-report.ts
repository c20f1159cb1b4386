import { fmt, ms, table } from "./format";
import {
  SCALE_CONNECTIONS,
  SCALE_LOAD_S,
  SCALE_OVERVIEW_CALLS,
  SCALE_RUNS,
  type ScaleResult,
  type ScaleStep,
} from "./scenarios/scale";

/** Issue #13 item 3's aims (the lead moves them into bench/settings.ts). */
export const SCALE_AIMS = {
  /** The list's p99 at 100k customers within this factor of its p99 at 1k. */
  listP99Growth: 2,
  /** The health overview at 10k customers under this many ms (p50). */
  overview10kMs: 50,
  /**
   * Export memory flat in the row count: the app's peak RSS growth during an export of 100k
   * rows within this factor of the growth for 10k rows (10x the rows). A whole-file export
   * grows ~10x; a streamed one stays near its batch size.
   */
  exportMemoryGrowth: 2,
} as const;

const verdict = (met: boolean) => (met ? "MET" : "MISSED");
const x = (value: number, base: number) => `${fmt(value / base, 2)}x`;
const mbOf = (kb: number) => fmt(kb / 1024, 1);

function stepAt(result: ScaleResult, customers: number): ScaleStep | undefined {
  return result.steps.find((s) => s.customers === customers);
}

function figureTable(result: ScaleResult, base: ScaleStep): string {
  const rows: string[][] = [];
  const add = (name: string, value: (s: ScaleStep) => number, unit: (v: number) => string) => {
    rows.push([name, ...result.steps.flatMap((s) => [unit(value(s)), x(value(s), value(base))])]);
  };
  const whole = (v: number) => fmt(v);
  add("list search p50 ms", (s) => s.list.search.p50Ms, ms);
  add("list search p99 ms", (s) => s.list.search.p99Ms, ms);
  add("list first page p50 ms", (s) => s.list.first.p50Ms, ms);
  add("list first page p99 ms", (s) => s.list.first.p99Ms, ms);
  add("health overview p50 ms", (s) => s.overview.p50Ms, ms);
  add("export csv ms", (s) => s.exports.csv.ms, whole);
  add("export csv peak MB", (s) => s.exports.csv.peakGrowthKb, mbOf);
  add("export xlsx ms", (s) => s.exports.xlsx.ms, whole);
  add("export xlsx peak MB", (s) => s.exports.xlsx.peakGrowthKb, mbOf);
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
      const count = plan.countMs === null ? "" : ` (total count ${ms(plan.countMs)} ms)`;
      lines.push(
        `    ${s.customers.toLocaleString("en-US").padStart(7)} ${name.padEnd(10)} ${ms(plan.executionMs).padStart(7)} ms${count}, shared hit ${plan.sharedHit} read ${plan.sharedRead}: ${plan.shape}`,
      );
    }
  }
  return lines;
}

function listVerdicts(base: ScaleStep, at100k: ScaleStep): string[] {
  const lines: string[] = [];
  for (const kind of ["search", "first"] as const) {
    const growth = at100k.list[kind].p99Ms / base.list[kind].p99Ms;
    const met = growth <= SCALE_AIMS.listP99Growth;
    lines.push(
      `  list ${kind === "search" ? "search (status + q)" : "first page"} p99 at 100k: ${ms(at100k.list[kind].p99Ms)} ms, ${fmt(growth, 2)}x of 1k (aim <= ${SCALE_AIMS.listP99Growth}x)  ${verdict(met)}`,
    );
    const name = kind === "search" ? "listSearch" : "listFirst";
    const plan = at100k.plans[name];
    const basePlan = base.plans[name];
    if (!met && plan.countMs !== null) {
      lines.push(
        `    why: the page carries its total, and the count is linear in the matches: ${ms(plan.countMs)} of the statement's ${ms(plan.executionMs)} ms at 100k (${ms(basePlan.countMs ?? Number.NaN)} of ${ms(basePlan.executionMs)} ms at 1k)`,
      );
    }
  }
  return lines;
}

function exportVerdicts(at10k: ScaleStep, at100k: ScaleStep): string[] {
  const lines: string[] = [];
  for (const format of ["csv", "xlsx"] as const) {
    const small = at10k.exports[format].peakGrowthKb;
    const large = at100k.exports[format].peakGrowthKb;
    const growth = large / Math.max(1, small);
    const met = growth <= SCALE_AIMS.exportMemoryGrowth;
    lines.push(
      `  export ${format} memory: peak +${mbOf(small)} MB at 10k, +${mbOf(large)} MB at 100k, ${fmt(growth, 2)}x for 10x the rows (flat: aim <= ${SCALE_AIMS.exportMemoryGrowth}x)  ${verdict(met)}`,
    );
    if (!met && format === "xlsx") {
      lines.push(
        "    why: the .xlsx is built whole in memory (exceljs model, then the zip): its column widths sit before the rows, and exceljs's streaming writer is not in the build Workers load; CSV streams",
      );
    }
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
    `  list: ${SCALE_CONNECTIONS} connections x ${SCALE_LOAD_S} s per run; health overview: p50 of ${SCALE_OVERVIEW_CALLS} sequential calls per run; export: one download per run, peak = app VmHWM${result.hwmReset ? " (reset before each run)" : " (not resettable: sampled RSS)"} minus RSS before`,
    figureTable(result, base),
    ...planLines(result),
  ];
  if (at100k) lines.push(...listVerdicts(base, at100k));
  if (at10k) {
    lines.push(
      `  health overview at 10k: ${ms(at10k.overview.p50Ms)} ms (aim < ${SCALE_AIMS.overview10kMs} ms)  ${verdict(at10k.overview.p50Ms < SCALE_AIMS.overview10kMs)}`,
    );
  }
  if (at10k && at100k) lines.push(...exportVerdicts(at10k, at100k));
  return lines.join("\n");
}
