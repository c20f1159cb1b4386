import { fmt, table } from "./format";
import { median } from "./load";
import { type BenchResults, derive } from "./report";
import { SETTINGS } from "./settings";

const { aims: AIMS } = SETTINGS;

/** One line of the summary: a figure beside its ceiling or aim, and whether the aim is met. */
export interface SummaryRow {
  figure: string;
  value: string;
  /** What it is measured against: a ceiling from the same run, or a fixed aim. */
  against: string;
  ratio: string;
  aim: string;
  verdict: "MET" | "MISSED" | "-";
}

const atLeast = (ratio: number, aim: number) => ({
  ratio: fmt(ratio, 2),
  aim: `>= ${aim}`,
  verdict: ratio >= aim ? ("MET" as const) : ("MISSED" as const),
});
const atMost = (value: number, aim: number, unit: string) => ({
  aim: `< ${fmt(aim)}${unit}`,
  verdict: value < aim ? ("MET" as const) : ("MISSED" as const),
});

/**
 * Every headline figure of the run with its ceiling or aim: printed first in the report, kept in
 * bench/.out/latest.json, and the README's table (`npm run bench:readme`).
 */
export function summaryRows(r: BenchResults): SummaryRow[] {
  const d = derive(r);
  const { healthApp, healthCeiling, meApp, meCeiling, listApp, listCeiling } = r.load;
  const { imports } = r.customerImport;
  const plan = r.statements.listPlan;
  const fresh = median(r.startup.fresh);
  const existing = median(r.startup.existing);
  return [
    {
      figure: "GET /health",
      value: `${fmt(healthApp.rps)} rps`,
      against: `bare node:http ${fmt(healthCeiling.rps)} rps`,
      ...atLeast(d.healthRatio, AIMS.health),
    },
    {
      figure: "GET /api/v1/auth/me",
      value: `${fmt(meApp.rps)} rps`,
      against: `bare node:http + same statement ${fmt(meCeiling.rps)} rps`,
      ...atLeast(d.meRatio, AIMS.me),
    },
    {
      figure: "customer list (20 of 10,000, status + search)",
      value: `${fmt(listApp.rps)} rps, p99 ${fmt(listApp.p99Ms)} ms`,
      against: `bare node:http + same statement ${fmt(listCeiling.rps)} rps`,
      ...atLeast(d.listRatio, AIMS.listOfCeiling),
    },
    {
      figure: "list statement (EXPLAIN ANALYZE, warm)",
      value: `${fmt(plan.statement.executionMs, 3)} ms`,
      against: `index-only read of the page ${fmt(plan.indexOnly.executionMs, 3)} ms`,
      ratio: `${fmt(plan.ratio, 2)}x`,
      aim: `<= ${AIMS.listOfIndexOnly}x`,
      verdict: plan.ratio <= AIMS.listOfIndexOnly ? "MET" : "MISSED",
    },
    {
      figure: "POST /api/v1/auth/login",
      value: `${fmt(r.login.app.okRps)}/s`,
      against: `argon2id at ${SETTINGS.hashConcurrency} at once ${fmt(r.login.ceilingRps)}/s`,
      ratio: fmt(d.loginRatio, 2),
      aim: "-",
      verdict: "-",
    },
    {
      figure: "credit charges",
      value: `${fmt(r.billing.chargesPerS)}/s, ledger ${r.billing.check.ok ? "OK" : "MISMATCH"}`,
      against: `pgbench -N ${fmt(r.billing.pgbenchTps)} tps`,
      ...atLeast(r.billing.ratio, AIMS.chargesOfPgbench),
    },
    {
      figure: "customer import, 5,000 rows",
      value: `${fmt(imports.medianSeconds, 2)} s, +${fmt(imports.maxPeakGrowthKb / 1024)} MB`,
      against: "-",
      ratio: "-",
      aim: `< ${AIMS.importS} s, < ${AIMS.importMb} MB`,
      verdict: d.importMet && d.importMemMet ? "MET" : "MISSED",
    },
    {
      figure: "quotation PDF (CJK font embedded)",
      value: `${fmt(r.pdf.renderMs, 1)} ms`,
      against: `pdf-lib with Helvetica ${fmt(r.pdf.ceilingMs, 1)} ms`,
      ratio: `${fmt(r.pdf.ratio, 2)}x`,
      aim: "-",
      verdict: "-",
    },
    {
      figure: "DB round trips per /me, list, PATCH",
      value: [r.roundTrips.me, r.roundTrips.list, r.roundTrips.patchCustomer]
        .map((t) => fmt(t.roundTrips, 2))
        .join(", "),
      against: "-",
      ratio: "-",
      aim: "1",
      verdict: [r.roundTrips.me, r.roundTrips.list, r.roundTrips.patchCustomer].every(
        (t) => t.roundTrips < 1.05,
      )
        ? "MET"
        : "MISSED",
    },
    {
      figure: "npm start, fresh data directory",
      value: `${fmt(fresh)} ms`,
      against: "-",
      ratio: "-",
      ...atMost(fresh, AIMS.freshStartMs, " ms"),
    },
    {
      figure: "npm start, existing data directory",
      value: `${fmt(existing)} ms`,
      against: "-",
      ratio: "-",
      ...atMost(existing, AIMS.existingStartMs, " ms"),
    },
  ];
}

/** The rows as a Markdown table (the README's). */
export function summaryMarkdown(rows: SummaryRow[]): string {
  const cells = (xs: string[]) => `| ${xs.map((x) => x.replaceAll("|", "\\|")).join(" | ")} |`;
  return [
    cells(["figure", "value", "against", "ratio", "aim", ""]),
    cells(["---", "---", "---", "---", "---", "---"]),
    ...rows.map((row) =>
      cells([row.figure, row.value, row.against, row.ratio, row.aim, row.verdict]),
    ),
  ].join("\n");
}

/** The rows as the report's first section. */
export function summaryText(rows: SummaryRow[]): string {
  return [
    "Summary (each figure beside its ceiling from this run or its aim; details below)",
    table(
      ["figure", "value", "against", "ratio", "aim", ""],
      rows.map((row) => [row.figure, row.value, row.against, row.ratio, row.aim, row.verdict]),
    ),
  ].join("\n");
}
