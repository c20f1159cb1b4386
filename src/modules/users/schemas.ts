import { GuestUserSchema, UserSchema } from "../auth/schemas";

// ProfilePatchBody (the request) still lives in ../auth/schemas with the user schemas it patches.

/** PATCH /users/me answers with the caller as /auth/me shows them: a user or a guest. */
export const UpdatedUserSchema = UserSchema.or(GuestUserSchema);
