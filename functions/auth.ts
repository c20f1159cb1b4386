import { authRoutes } from "../src/groups/auth";
import { createWorker } from "../src/runtime/worker";

/** Worker `auth` (wrangler.toml [env.auth]): accounts: register, login, tokens, profile, usage. */
export default createWorker(authRoutes);
