import { z } from "@hono/zod-openapi";
import { CUSTOMER_STATUSES, OWNERSHIP_ACTIONS } from "../../../db/schema";
import { pageSchema } from "../../../lib/pagination";

/** The most ids one bulk request judges: one statement each, whatever the action. */
const BULK_MAX_IDS = 1000;

const uuid = (description: string) => z.uuid({ error: "Not a valid id" }).openapi({ description });
const reason = z.string().trim().min(1).max(500);

export const ReleaseBody = z
  .object({
    reason: reason.openapi({ description: "Why the customer goes back to the pool (1..500)" }),
  })
  .openapi("PoolReleaseBody");
export type ReleaseInput = z.infer<typeof ReleaseBody>;

export const TransferBody = z
  .object({
    to_user_id: uuid("A member of the caller's organisation, the new holder"),
    reason: reason.optional(),
  })
  .openapi("PoolTransferBody");
export type TransferInput = z.infer<typeof TransferBody>;

const BULK_ACTIONS = ["transfer", "release", "set_status", "delete"] as const;

export const BulkBody = z
  .object({
    ids: z
      .array(uuid("A customer id"))
      .min(1)
      .max(BULK_MAX_IDS)
      .openapi({ description: `1 to ${BULK_MAX_IDS} customer ids; each is judged on its own` }),
    action: z.enum(BULK_ACTIONS),
    to_user_id: uuid("transfer: the new holder, a member of the organisation").optional(),
    status: z
      .enum(CUSTOMER_STATUSES)
      .optional()
      .openapi({ description: "set_status: the new status (the usual transitions apply)" }),
    reason: reason.optional().openapi({ description: "release (required), transfer (optional)" }),
  })
  .openapi("CustomerBulkBody");
export type BulkInput = z.infer<typeof BulkBody>;

export const BulkResultSchema = z
  .object({
    done: z.array(z.string()).openapi({ description: "The ids the action was applied to" }),
    refused: z
      .array(z.object({ id: z.string(), detail: z.string() }))
      .openapi({ description: "The ids left alone, each with why (`not found` for another's)" }),
  })
  .openapi("CustomerBulkResult");

const OwnershipEventSchema = z
  .object({
    from_user_id: z
      .string()
      .nullable()
      .openapi({ description: "The holder before; null: the pool" }),
    to_user_id: z.string().nullable().openapi({ description: "The holder after; null: the pool" }),
    action: z.enum(OWNERSHIP_ACTIONS),
    reason: z.string().nullable(),
    actor_id: z
      .string()
      .nullable()
      .openapi({ description: "Who did it; null for the overnight recycle" }),
    at: z.string(),
  })
  .openapi("CustomerOwnershipEvent");

export const OwnershipPage = pageSchema(OwnershipEventSchema).openapi("CustomerOwnershipPage");

export const OwnershipChangeSchema = z
  .object({
    id: z.string(),
    user_id: z.string().nullable().openapi({ description: "The holder now; null: the pool" }),
    event: OwnershipEventSchema,
  })
  .openapi("CustomerOwnershipChange");
