import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  emailDomain,
  matchableName,
  normaliseCompanyName,
  registrableHost,
  websiteDomain,
} from "../../src/modules/discovery/company-identity";
import { customerCandidatesSql } from "../../src/modules/discovery/queries/seller";
import { registerUser } from "../support/client";
import { createTestContext } from "../support/harness";

// Issue #24 item 5: how a discovered company and a customer are recognised as one company
// (ADR 0112), and the one statement that finds the candidates.

const { deps, app } = await createTestContext();

describe("company identity", () => {
  it("normalises names: case, punctuation and legal suffixes in several languages", () => {
    const same: [string, string][] = [
      ["Beta Trading Co., Ltd.", "beta trading"],
      ["BETA TRADING GmbH", "beta trading"],
      ["Beta-Trading S.A.", "beta trading"],
      ["Beta Trading, S.L.", "beta trading"],
      ["Beta Trading L.L.C.", "beta trading"],
      ["Beta Trading GmbH & Co. KG", "beta trading"],
      ["Beta Trading Inc", "beta trading"],
      ["Beta Trading S.r.l.", "beta trading"],
      ["宁波光明照明有限公司", "宁波光明照明"],
      ["宁波光明照明股份有限公司", "宁波光明照明"],
      ["Ｂｅｔａ Ｔｒａｄｉｎｇ Ltd", "beta trading"],
    ];
    for (const [name, normalised] of same)
      expect(normaliseCompanyName(name), name).toBe(normalised);
    // Only a suffix is dropped: a name that is all legal words keeps them.
    expect(normaliseCompanyName("Company Ltd")).toBe("company");
    expect(normaliseCompanyName("Acme Company Trading")).toBe("acme company trading");
    expect(normaliseCompanyName("  ")).toBe("");
    expect(matchableName("ab")).toBe(false);
    expect(matchableName("abc")).toBe(true);
    expect(matchableName("光明")).toBe(true);
  });

  it("reads registrable hosts from websites and emails, never a free-mail domain", () => {
    expect(registrableHost("WWW.Acme.de")).toBe("acme.de");
    expect(registrableHost("shop.acme.co.uk")).toBe("acme.co.uk");
    expect(registrableHost("mail.acme.com.cn")).toBe("acme.com.cn");
    expect(registrableHost("10.0.0.1")).toBeUndefined();
    expect(websiteDomain("https://www.acme.de/about")).toBe("acme.de");
    expect(websiteDomain("acme.de")).toBe("acme.de");
    expect(websiteDomain(null)).toBeUndefined();
    expect(emailDomain("Jo@Sales.Acme.de")).toBe("acme.de");
    expect(emailDomain("jo@gmail.com")).toBeUndefined();
    expect(emailDomain("jo@qq.com")).toBeUndefined();
    expect(emailDomain("not-an-email")).toBeUndefined();
  });
});

describe("the candidate statement", () => {
  // ADR 0112: no index of its own on customers. The statement reads the caller's organisation
  // only, through an org_id-leading index (or, when the planner finds it cheaper for a large
  // organisation, the trigram index customers_search_idx), never the table.
  it("reads only the caller's organisation through an index, all patterns in one statement", async () => {
    const user = await registerUser(app);
    await deps.db.execute(
      sql`insert into customers (user_id, company, email)
          select ${user.userId}::uuid, 'Customer ' || n || ' Lighting Trading',
            'buyer' || n || '@customer' || n || '.example'
          from generate_series(1, 2000) n`,
    );
    await deps.db.execute(sql`analyze customers`);
    const plan = await deps.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const result = (await tx.execute(
        sql`explain ${customerCandidatesSql({
          userId: user.userId,
          patterns: ["acme-imports.example", "beta trading"],
        })}`,
      )) as unknown as { rows: Record<string, string>[] };
      return result.rows.map((r) => Object.values(r)[0]).join("\n");
    });
    expect(plan).not.toContain("Seq Scan on customers");
    // The organisation read once (an InitPlan: PostgreSQL 16 prints it as $0, 17 by name).
    expect(plan).toMatch(/Index Cond: \(org_id = (\(InitPlan 1\)|\$\d+)/);
    expect(plan).toContain("'%acme-imports.example%'");
    expect(plan).toContain("'%beta%trading%'");
  }, 120_000);
});
