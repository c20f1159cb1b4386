import type { Deps } from "../deps";

/** Who the request is, once requireAuth has verified the access token. */
export interface AuthContext {
  userId: string;
  /** Refresh-token family of this login: CSRF tokens and logout are bound to it. */
  sessionId: string;
  role: "user" | "admin";
  isGuest: boolean;
  /** Cookie-authenticated requests must also carry the CSRF cookie (browser double submit). */
  via: "bearer" | "cookie";
}

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
