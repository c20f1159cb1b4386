import type { AuthContext, Deps } from "../ports";

export interface AppEnv {
  Variables: {
    deps: Deps;
    /** The server's own id of this request (fresh each time; the response's X-Request-Id). */
    requestId: string;
    /** The caller's X-Request-Id when well formed (clientRequestId): logged beside ours. */
    clientRequestId: string | undefined;
    auth: AuthContext;
  };
}
