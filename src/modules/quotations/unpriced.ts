import { ApiError } from "../../http/errors";

/**
 * A line priced 0 (an inquiry line no product matched, or one the seller has not priced yet)
 * prints as 0.00, which a buyer reads as "free": such a quotation may not go out until every
 * line has a price (issue #23). One rule for every way a quotation is sent (POST .../send, a
 * status change to `sent`).
 */
function unpricedLines(items: readonly { position: number; unit_price: number }[]) {
  return items.filter((item) => item.unit_price <= 0).map((item) => item.position);
}

/** 409 `quotation_unpriced` naming the lines (`lines`: their positions) when any is unpriced. */
export function assertPriced(items: readonly { position: number; unit_price: number }[]) {
  const lines = unpricedLines(items);
  if (lines.length === 0) return;
  throw new ApiError(
    409,
    `Line${lines.length === 1 ? "" : "s"} ${lines.join(", ")} ${lines.length === 1 ? "has" : "have"} no price (0): price ${lines.length === 1 ? "it" : "them"} before sending`,
    { code: "quotation_unpriced", extra: { lines } },
  );
}
