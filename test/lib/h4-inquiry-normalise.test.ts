import { describe, expect, it } from "vitest";
import { INCOTERMS_2020, normalizeIncoterm } from "../../src/lib/incoterms";
import {
  buyerQuestions,
  detectLanguage,
  normalizeCertifications,
  normalizeCountry,
  normalizeDeadline,
  normalizePaymentTerms,
} from "../../src/lib/inquiry-fields";
import { findPort, foldPortName, PORT_COUNT, PORTS } from "../../src/lib/ports";
import { normalizeUnit } from "../../src/lib/units";

// Issue #24 item 4 (ADR 0111): what the code around the model owns, unit by unit.

describe("ports (UN/LOCODE)", () => {
  it("ships 150+ main ports, each code well formed and once, each name naming one port", () => {
    expect(PORT_COUNT).toBeGreaterThanOrEqual(150);
    const codes = PORTS.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}[A-Z2-9]{3}$/);
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const [code, name, others] of PORTS) {
      for (const n of [name, ...others.split("|")]) {
        const key = foldPortName(n);
        const seen = owner.get(key);
        if (seen && seen !== code) clashes.push(`${n}: ${seen} and ${code}`);
        owner.set(key, code);
      }
    }
    expect(clashes).toEqual([]);
  });

  it.each([
    ["Hamburgo", "DEHAM"],
    ["汉堡", "DEHAM"],
    ["汉堡港", "DEHAM"],
    ["Hafen Hamburg", "DEHAM"],
    ["CIF Hamburg, Germany", "DEHAM"],
    ["鹿特丹", "NLRTM"],
    ["port of Rotterdam", "NLRTM"],
    ["جدة", "SAJED"],
    ["ميناء جدة", "SAJED"],
    ["Jeddah", "SAJED"],
    ["Valencia", "ESVLC"],
    ["Puerto de Valencia", "ESVLC"],
    ["Shanghai", "CNSHA"],
    ["上海", "CNSHA"],
    ["香港", "HKHKG"],
    ["Génova", "ITGOA"],
    ["Jebel Ali, Dubai", "AEJEA"],
    ["الإسكندرية", "EGALY"],
    ["DEHAM", "DEHAM"],
    ["de ham", "DEHAM"],
  ])("%s -> %s", (raw, code) => {
    expect(findPort(raw)?.locode).toBe(code);
  });

  it("finds nothing for a place not in the table, and no Latin name inside another word", () => {
    expect(findPort("Puerto Quetzal Norte")).toBeUndefined();
    expect(findPort("Dallas")).toBeUndefined();
    expect(findPort("")).toBeUndefined();
    expect(findPort("Temara")).toBeUndefined(); // "Tema" (GHTEM) only as a whole word
    expect(findPort("Tema, Ghana")?.locode).toBe("GHTEM");
  });
});

describe("Incoterms 2020", () => {
  it("reads every code, in any case, inside a text", () => {
    for (const code of INCOTERMS_2020) {
      expect(normalizeIncoterm(code)).toEqual({ code });
      expect(normalizeIncoterm(`${code.toLowerCase()} Shanghai`)).toEqual({ code });
    }
    expect(normalizeIncoterm("specification")).toBeUndefined();
    expect(normalizeIncoterm("best price")).toBeUndefined();
    expect(normalizeIncoterm(null)).toBeUndefined();
  });

  it.each([
    ["free on board", "FOB"],
    ["franco a bordo", "FOB"],
    ["frei an Bord", "FOB"],
    ["离岸价", "FOB"],
    ["فوب", "FOB"],
    ["C&F", "CFR"],
    ["CNF", "CFR"],
    ["c + f Mombasa", "CFR"],
    ["coste y flete", "CFR"],
    ["costo, seguro y flete", "CIF"],
    ["到岸价", "CIF"],
    ["سيف", "CIF"],
    ["ab Werk", "EXW"],
    ["工厂交货", "EXW"],
    ["frei Längsseite Schiff", "FAS"],
    ["frachtfrei versichert", "CIP"],
    ["frachtfrei", "CPT"],
    ["geliefert verzollt", "DDP"],
    ["完税后交货", "DDP"],
  ])("%s -> %s", (raw, code) => {
    expect(normalizeIncoterm(raw)).toEqual({ code });
  });

  it("reads withdrawn terms as their successor, with a note", () => {
    expect(normalizeIncoterm("DDU")).toEqual({
      code: "DAP",
      note: "DDU is not an Incoterms 2020 rule; read as DAP, its successor",
    });
    expect(normalizeIncoterm("DAT Jebel Ali")?.code).toBe("DPU");
  });
});

describe("units", () => {
  it.each([
    ["Stück", "pcs"],
    ["Stk.", "pcs"],
    ["件", "pcs"],
    ["个", "pcs"],
    ["unidades", "pcs"],
    ["قطعة", "pcs"],
    ["pieces", "pcs"],
    ["PCS", "pcs"],
    ["juegos", "sets"],
    ["套", "sets"],
    ["Kartons", "cartons"],
    ["كرتون", "cartons"],
    ["toneladas", "tons"],
    ["吨", "tons"],
    ["kgs", "kg"],
    ["metros", "m"],
  ])("%s -> %s", (raw, unit) => {
    expect(normalizeUnit(raw)).toBe(unit);
  });

  it("keeps a unit it does not know, and reads none from nothing", () => {
    expect(normalizeUnit("drums of 200 l")).toBe("drums of 200 l");
    expect(normalizeUnit(" ")).toBeUndefined();
    expect(normalizeUnit(null)).toBeUndefined();
  });
});

describe("country, deadline, certifications, payment terms, language", () => {
  it("reads countries in five languages to ISO codes", () => {
    for (const name of ["Germany", "Alemania", "Deutschland", "德国", "ألمانيا", "DE"]) {
      expect(normalizeCountry(name), name).toBe("DE");
    }
    expect(normalizeCountry("السعودية")).toBe("SA");
    expect(normalizeCountry("UAE")).toBe("AE");
    expect(normalizeCountry("USA")).toBe("US");
    expect(normalizeCountry("UK")).toBe("GB");
    expect(normalizeCountry("Atlantis")).toBeUndefined();
  });

  it("takes a deadline only as a real ISO date", () => {
    expect(normalizeDeadline("2026-03-15")).toBe("2026-03-15");
    expect(normalizeDeadline("2026/3/5")).toBe("2026-03-05");
    expect(normalizeDeadline("2026-02-30")).toBeUndefined();
    expect(normalizeDeadline("end of March")).toBeUndefined();
  });

  it("spells certifications as usual and payment methods short", () => {
    expect(
      normalizeCertifications(["ce", "RoHS", "CE认证", "SASO certificate", "ISO9001", "KEBS"]),
    ).toEqual(["CE", "RoHS", "SASO", "ISO 9001", "KEBS"]);
    expect(normalizePaymentTerms("TT")).toBe("T/T");
    expect(normalizePaymentTerms("Überweisung")).toBe("T/T");
    expect(normalizePaymentTerms("信用证")).toBe("L/C");
    expect(normalizePaymentTerms("30% deposit, 70% against B/L")).toBe(
      "30% deposit, 70% against B/L",
    );
  });

  it("tells the inquiry's language by script, the model, or common words", () => {
    expect(detectLanguage("您好，我们需要500个", "en")).toBe("zh");
    expect(detectLanguage("مرحبا نحتاج 500 قطعة", null)).toBe("ar");
    expect(detectLanguage("Bonjour", "fr-FR")).toBe("fr");
    expect(detectLanguage("Hola, necesitamos 500 unidades por favor", null)).toBe("es");
    expect(detectLanguage("Sehr geehrte Damen und Herren, wir bitten um ein Angebot", null)).toBe(
      "de",
    );
    expect(detectLanguage("Hi, we need 500 pieces", null)).toBe("en");
  });

  it("asks the buyer for what is missing in their language", () => {
    const missing = ["items[0].quantity", "incoterm", "destination"] as const;
    expect(buyerQuestions("de", missing, ["Fluter 50W"], null)).toBe(
      [
        "Vielen Dank für Ihre Anfrage. Damit wir Ihnen ein genaues Angebot erstellen können, teilen Sie uns bitte mit:",
        "- die benötigte Menge von Fluter 50W",
        "- die gewünschten Lieferbedingungen (Incoterm), z. B. FOB, CIF oder DDP",
        "- den Bestimmungshafen oder das Bestimmungsland",
        "Mit freundlichen Grüßen",
      ].join("\n"),
    );
    expect(buyerQuestions("zh", ["incoterm"], [], null)).toMatch(/^感谢您的询价。/);
    expect(buyerQuestions("ar", ["destination"], [], null)).toContain("ميناء أو بلد الوصول");
    expect(buyerQuestions("es", [], [], null)).toBeNull();
    expect(buyerQuestions("fr", ["incoterm"], [], "Quel Incoterm ?")).toBe("Quel Incoterm ?");
    expect(buyerQuestions("fr", ["incoterm"], [], null)).toMatch(/^Thank you for your inquiry\./);
  });
});
