import { deflateSync } from "node:zlib";
import type { QuotationDocument } from "../../src/modules/quotations/view";

/**
 * The golden set of issue 23 item 6: twelve documents a buyer would receive, each built to
 * break the layout one way (lines, name lengths, an unbroken word, scripts, discounts, currency
 * digits, the proforma). Shared by test/documents/quotation-golden.test.ts, the docs images
 * (scripts/quotation-doc-images.ts) and nothing in src/.
 */

type Quotation = QuotationDocument["quotation"];
type Item = Quotation["items"][number];
type Stamp = Quotation["created_at"];

/** A solid PNG (8-bit RGB), made here so the logo path is exercised without a binary fixture. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let row = 0; row < height; row++) {
    for (let x = 0; x < width; x++) raw.set([r, g, b], row * (width * 3 + 1) + 1 + x * 3);
  }
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(raw)),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

/** A name of exactly `length` characters: words of real-looking company copy, then cut. */
function nameOf(length: number, seed: string): string {
  const words = `${seed} International Trading Import Export Manufacturing Holdings Industrial Supplies Components Logistics Services`;
  let out = "";
  while (out.length < length) out += `${out ? " " : ""}${words}`;
  return out.slice(0, length).trimEnd().padEnd(length, "x");
}

const item = (
  position: number,
  name: string,
  quantity: number,
  unitPrice: number,
  extra: Partial<Item> = {},
): Item => ({
  id: `item-${position}`,
  product_id: null,
  position,
  name,
  description: null,
  unit: "pcs",
  quantity,
  unit_price: unitPrice,
  line_total: quantity * unitPrice,
  ...extra,
});

interface Spec {
  quoteNo: string;
  currency: string;
  items: Item[];
  /** Discount in per cent of the subtotal (rounded to the minor unit). */
  discountPercent?: number;
  shipping?: number;
  seller?: QuotationDocument["seller"];
  parties?: Partial<QuotationDocument["parties"]>;
  buyer?: QuotationDocument["buyer"];
  trade?: QuotationDocument["trade"];
  notes?: string | null;
  exchangeRates?: Quotation["exchange_rates"];
  incoterm?: Quotation["incoterm"];
}

function build(spec: Spec): QuotationDocument {
  const subtotal = spec.items.reduce((sum, i) => sum + i.line_total, 0);
  const discount = Math.round((subtotal * (spec.discountPercent ?? 0)) / 100);
  const shipping = spec.shipping ?? 0;
  return {
    quotation: {
      id: spec.quoteNo,
      org_id: "golden-org",
      user_id: "golden-seller",
      owner_name: "Golden Seller",
      quote_no: spec.quoteNo,
      customer_id: null,
      status: "sent",
      currency: spec.currency,
      incoterm: spec.incoterm ?? "FOB",
      valid_until: "2026-12-31",
      subtotal,
      discount,
      shipping,
      total: subtotal - discount + shipping,
      notes: spec.notes ?? null,
      exchange_rates: spec.exchangeRates ?? [],
      created_at: "2026-11-24T04:00:00.000Z" as Stamp,
      updated_at: "2026-11-24T04:00:00.000Z" as Stamp,
      items: spec.items,
      // Cast: the row grows columns (revision, named place...) the renderer reads from `trade`.
    } as Quotation,
    parties: {
      seller_name: "Wei Li",
      seller_company: "Ningbo Cups",
      seller_email: "sales@ningbocups.example",
      seller_phone: "+86 574 8888 0000",
      seller_country: "CN",
      customer_company: "Acme GmbH",
      customer_contact: "Anna Schmidt",
      customer_email: "anna@acme.example",
      customer_country: "DE",
      ...spec.parties,
    },
    seller: spec.seller ?? null,
    buyer: spec.buyer ?? null,
    trade: spec.trade ?? null,
  };
}

/** Lines with distinct, checkable names: "Part 007 ..." so each is findable once. */
const lines = (count: number, nameLength: number, unitPrice: number) =>
  Array.from({ length: count }, (_, i) => {
    const label = `Part ${String(i + 1).padStart(3, "0")}`;
    const name =
      nameLength <= label.length
        ? label
        : `${label} ${nameOf(nameLength - label.length - 1, "Cup")}`;
    return item(i + 1, name, 10 * (i + 1), unitPrice + i);
  });

const SELLER_FULL: NonNullable<QuotationDocument["seller"]> = {
  legal_name: "Ningbo Cups Manufacturing Co., Ltd.",
  address: "No. 88 Jiangnan Road, Beilun District\nNingbo, Zhejiang 315800, China",
  phone: "+86 574 8888 0000",
  email: "sales@ningbocups.example",
  website: "www.ningbocups.example",
  logo: solidPng(120, 40, [30, 90, 160]),
  bank_details:
    "Bank of China, Ningbo Branch\nAccount name: Ningbo Cups Manufacturing Co., Ltd.\nAccount no. 3581 0000 1234 5678\nSWIFT BKCHCNBJ92A",
  payment_terms: "30% deposit by T/T with the order, 70% balance against the copy of the B/L.",
  validity_days: 30,
  footer: "Ningbo Cups Manufacturing Co., Ltd. - registered in Ningbo, VAT no. CN913302001234",
};

const TRADE_FULL: NonNullable<QuotationDocument["trade"]> = {
  incoterm: "FOB",
  named_place: "Ningbo",
  port_of_loading: "Ningbo-Zhoushan",
  lead_time: "25 days after deposit",
  packing: ["1 pc per white box, 48 pcs per 5-ply carton", "Carton 60 x 40 x 30 cm, 14 kg gross"],
};

export interface GoldenDocument {
  name: string;
  doc: QuotationDocument;
  /** Whether the page holds Chinese or Japanese (OCR with chi_sim too). */
  cjk?: boolean;
  /** The PDF is refused (right-to-left script): the refusal's script. */
  refused?: string;
}

const long200 = nameOf(200, "Zhejiang");
const long80 = nameOf(80, "Hamburg");

export const GOLDEN: GoldenDocument[] = [
  {
    name: "01-one-line-short-names",
    doc: build({
      quoteNo: "Q-20261124-001",
      currency: "USD",
      items: [item(1, "Vacuum cup", 500, 1299)],
      parties: { seller_company: "Ningbo Cup", customer_company: "Acme GmbH." },
      seller: { ...SELLER_FULL, legal_name: "Ningbo Cup" },
      trade: TRADE_FULL,
    }),
  },
  {
    name: "02-25-lines-80-char-names",
    doc: build({
      quoteNo: "Q-20261124-002",
      currency: "EUR",
      items: lines(25, 80, 845),
      discountPercent: 5,
      shipping: 12_000,
      seller: { ...SELLER_FULL, legal_name: long80 },
      buyer: {
        company: nameOf(80, "Bremen"),
        contact: "Jonas Becker",
        address: "Hafenstrasse 12\n28217 Bremen",
        country: "Germany",
      },
      trade: TRADE_FULL,
    }),
  },
  {
    name: "03-120-lines-200-char-names",
    doc: build({
      quoteNo: "Q-20261124-003",
      currency: "USD",
      items: lines(120, 200, 1299),
      discountPercent: 40,
      seller: { ...SELLER_FULL, legal_name: long200 },
      buyer: {
        company: nameOf(200, "Rotterdam"),
        contact: nameOf(80, "Pieter"),
        country: "Netherlands",
      },
      trade: TRADE_FULL,
      notes: "Prices include the custom logo. Samples free of charge, freight collect.",
    }),
  },
  {
    name: "04-unbroken-2000-char-word",
    doc: build({
      quoteNo: "Q-20261124-004",
      currency: "USD",
      items: [
        item(1, "WATERPROOF".repeat(200), 2, 1500),
        item(2, "Rain jacket", 20, 2500, { description: "BREATHABLESEAMSEALED".repeat(100) }),
      ],
      parties: { customer_company: "GLOBALTRADINGPARTNERS".repeat(96).slice(0, 2000) },
    }),
  },
  {
    name: "05-chinese",
    cjk: true,
    doc: build({
      quoteNo: "Q-20261124-005",
      currency: "CNY",
      items: [
        item(1, "不锈钢保温杯 500毫升", 1000, 3500, {
          description: "双层真空，304不锈钢，可定制标志",
        }),
        item(2, "陶瓷咖啡杯 礼盒装", 500, 1800),
        item(3, "玻璃水瓶 带滤网", 300, 2200),
      ],
      seller: {
        ...SELLER_FULL,
        legal_name: "宁波杯业制造有限公司",
        address: "中国浙江省宁波市北仑区江南路88号",
      },
      buyer: {
        company: "上海贸易进出口有限公司",
        contact: "王芳",
        address: "上海市浦东新区世纪大道100号",
        country: "中国",
      },
      trade: { ...TRADE_FULL, lead_time: "收到定金后25天" },
    }),
  },
  {
    name: "06-japanese-jpy",
    cjk: true,
    doc: build({
      quoteNo: "Q-20261124-006",
      currency: "JPY",
      items: [
        item(1, "ステンレス真空断熱タンブラー", 1000, 1850),
        item(2, "竹製のふた", 1000, 320),
        item(3, "ギフトボックス", 1000, 150),
      ],
      discountPercent: 3,
      buyer: {
        company: "東京商事株式会社",
        contact: "佐藤健",
        address: "東京都千代田区丸の内1-1-1",
        country: "日本",
      },
      trade: { incoterm: "CIF", named_place: "Tokyo", lead_time: "30日" },
    }),
  },
  {
    name: "07-german-umlauts",
    doc: build({
      quoteNo: "Q-20261124-007",
      currency: "EUR",
      items: [
        item(1, "Edelstahl-Thermobecher, Größe 500 ml", 800, 1150),
        item(2, "Bambusdeckel für Thermobecher", 800, 210, {
          description: "Natürliche Oberfläche, lebensmittelecht",
        }),
        item(3, "Geschenkkarton mit Magnetverschluss", 800, 95),
      ],
      discountPercent: 2,
      buyer: {
        company: "Müller Präzisionsgeräte GmbH",
        contact: "Jürgen Weiß",
        address: "Königstraße 5\n70173 Stuttgart",
        country: "Deutschland",
      },
      trade: { incoterm: "DAP", named_place: "Stuttgart", lead_time: "35 Tage nach Anzahlung" },
      notes: "Preise gültig für die oben genannten Mengen; Änderungen vorbehalten.",
    }),
  },
  {
    name: "08-arabic",
    refused: "Arabic",
    doc: build({
      quoteNo: "Q-20261124-008",
      currency: "AED",
      items: [item(1, "كوب حراري من الفولاذ", 500, 2500)],
      buyer: { company: "شركة الخليج للتجارة", contact: "أحمد", country: "الإمارات" },
    }),
  },
  {
    name: "09-zero-discount",
    doc: build({
      quoteNo: "Q-20261124-009",
      currency: "GBP",
      items: lines(6, 30, 999),
      discountPercent: 0,
      shipping: 0,
      seller: SELLER_FULL,
    }),
  },
  {
    name: "10-large-discount-kwd",
    doc: build({
      quoteNo: "Q-20261124-010",
      currency: "KWD",
      items: [
        item(1, "Industrial water dispenser", 12, 185_250),
        item(2, "Filter cartridge", 240, 4_125),
      ],
      discountPercent: 65,
      shipping: 45_500,
      buyer: { company: "Kuwait Trading Co. W.L.L.", contact: "Fahad Salem", country: "Kuwait" },
      trade: { incoterm: "CFR", named_place: "Shuwaikh", port_of_loading: "Ningbo" },
      exchangeRates: [
        { from: "USD", to: "KWD", rate: "0.307512000000", date: "2026-11-23", source: "ECB" },
      ],
    }),
  },
  {
    name: "11-proforma",
    doc: {
      ...build({
        quoteNo: "Q-20261124-011",
        currency: "USD",
        items: lines(8, 40, 1299),
        discountPercent: 10,
        shipping: 35_000,
        seller: SELLER_FULL,
        buyer: {
          company: "Acme Imports Ltd.",
          contact: "John Carter",
          address: "12 Harbour Street\nLiverpool L3 4AA",
          country: "United Kingdom",
        },
        trade: TRADE_FULL,
      }),
      kind: "proforma",
    },
  },
  {
    name: "12-revision-all-terms",
    doc: {
      ...build({
        quoteNo: "Q-20261124-012",
        currency: "USD",
        items: lines(12, 60, 2599),
        discountPercent: 12.5,
        shipping: 20_000,
        seller: SELLER_FULL,
        buyer: {
          company: "Pacific Outdoor Supply Inc.",
          contact: "Maria Lopez",
          address: "400 Harbor Blvd\nLong Beach, CA 90802",
          country: "United States",
        },
        trade: TRADE_FULL,
        notes: "Revised: quantities of parts 3 and 7 as agreed by e-mail on 20 November.",
        exchangeRates: [
          { from: "CNY", to: "USD", rate: "0.139831546723", date: "2026-11-23", source: "ECB" },
        ],
      }),
      revision: 2,
    },
  },
];

// The proforma's own fields: 30% deposit of its total.
{
  const proforma = GOLDEN.find((g) => g.doc.kind === "proforma")!.doc;
  const total = proforma.quotation.total;
  const deposit = Math.round(total * 0.3);
  proforma.proforma = {
    proforma_no: "PI-2026-0007",
    issue_date: "2026-11-26",
    deposit,
    balance: total - deposit,
    deposit_percent: 30,
  };
}
