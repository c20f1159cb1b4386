import { uuidv7 } from "uuidv7";
import { z } from "zod";

export interface IdGenerator {
  /** Time-ordered UUID (v7): index-friendly primary keys. */
  uuid(): string;
}

export const uuidIds: IdGenerator = { uuid: () => uuidv7() };

const uuidSchema = z.uuid();
export const isUuid = (value: unknown): value is string => uuidSchema.safeParse(value).success;
