export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database and the rate limiter answer */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/csrf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Issue a CSRF token (cookie + body), bound to the caller's session if signed in */
        get: operations["getCsrfToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register with email and password: 30 credits and a 7-day trial. Sent with a guest's token (Bearer, or cookie + X-CSRF-Token), the guest becomes the account and keeps its id and data */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a JSON body {email, password}. Budgets: 5/min per IP+email, 20/min and 200/h per IP, and a growing delay per account after 5 failures. Sent with a guest's token, the guest's data moves to the account */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/guest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in as a guest with a fresh UUID identity */
        post: operations["startGuestSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/wechat/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with a WeChat OAuth code (creates the account on first use). Sent with a guest's token (Bearer, or cookie + X-CSRF-Token), the guest becomes the WeChat account and keeps its id and data; if the WeChat user already has an account, the guest's data moves to it */
        post: operations["loginWithWechat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate the refresh token (cookie or body) and get a new access token */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke this session's refresh tokens and clear cookies */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change password; every other session is signed out
         * @description An account without a password (WeChat sign-in) gets 403 here: it sets its first password together with an e-mail address through POST /api/v1/auth/email (docs/adr/0089).
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current user (guests get their own shape with is_guest: true) */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send (again) the verification mail to the caller's address; older links stop working */
        post: operations["postAuthVerifyEmailRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Use the token of a verification or e-mail change mail: the address is verified
         * @description Every session of the account ends except the caller's own, when the request carries it (Bearer, or the access_token cookie with X-CSRF-Token): whoever registered the address may not be who holds the mailbox. A verification never grants the admin role; an address in ADMIN_EMAILS is verified through a password-reset link instead (docs/adr/0084).
         */
        post: operations["postAuthVerifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password/forgot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset link if an account has this address; the answer is the same either way */
        post: operations["postAuthPasswordForgot"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with the mailed token; every session of the account ends
         * @description The link reached the mailbox, so the address is verified too. An address in ADMIN_EMAILS becomes admin here and only here (docs/adr/0084).
         */
        post: operations["postAuthPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the e-mail address: takes effect once the link mailed to the new one is used
         * @description An account without a password (WeChat sign-in) adds its address here and sets its first password with `password`, confirmed by a fresh WeChat code (`wechat_code`); both take effect when the link is used, which also ends every other session (docs/adr/0089).
         */
        post: operations["postAuthEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete the account and its data; every session ends
         * @description `{password}`, or for an account without one (WeChat sign-in) `{code}` mailed by POST /api/v1/users/me/deletion-code. The organisation's rules apply: the owner of an organisation with other members transfers ownership first (409); a member leaves as when removed (their customers to the pool, the company keeps its records). The records of the account's own organisation go; the credit ledger, payments, subscriptions and invoices stay as money records naming the anonymised account. Audited (`user.delete`).
         */
        delete: operations["deleteMe"];
        options?: never;
        head?: never;
        /** Update profile fields (send null to clear one) */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/api/v1/users/me/deletion-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a code that confirms DELETE /users/me (accounts without a password) */
        post: operations["postUsersMeDeletionCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every record the caller holds, as a zip of JSON and CSV files
         * @description Profile, organisation, customers held, follow-ups, products and quotations (with lines) made, credit ledger, payments, subscriptions, invoices, certifications, notifications, marketing, translations, assistant conversations, discovery records, agent runs and usage logs: `<kind>.json` and `<kind>.csv` each. Audited (`user.export`).
         */
        get: operations["exportMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/usage/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage per UTC day and event of the caller or, for manager+, a member (default: the last 30 days) */
        get: operations["getUsageStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's organisation: plan, seats, member count, the caller's role, settings */
        get: operations["getOrg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Admin+: rename, or change settings (merged into the stored ones) */
        patch: operations["patchOrg"];
        trace?: never;
    };
    "/api/v1/org/document-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The seller block every document of the organisation prints (any member) */
        get: operations["getOrgDocumentSettings"];
        /** Admin+: set the document settings (a field left out keeps its value, null clears it); audited */
        put: operations["putOrgDocumentSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members with their customers held and credits used this month */
        get: operations["getOrgMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Admin+: remove a member; their customers to transfer_to or the pool, their sessions end, a new personal organisation */
        delete: operations["deleteOrgMembersByUserId"];
        options?: never;
        head?: never;
        /** Admin+: a member's role or monthly credit limit (an admin only by the owner) */
        patch: operations["patchOrgMembersByUserId"];
        trace?: never;
    };
    "/api/v1/org/leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Leave the organisation (not the owner); customers to the pool, sessions end */
        post: operations["postOrgLeave"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/transfer-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Owner: a member becomes the owner, the old owner an admin */
        post: operations["postOrgTransferOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the inviting organisation (verified invited address; the only member of the current one) */
        post: operations["postOrgInvitationsAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Admin+: pending invitations (not accepted, revoked or expired), newest first */
        get: operations["getOrgInvitations"];
        put?: never;
        /** Admin+: invite an address; mails FRONTEND_URL/invite?token=... (30 an hour per inviter) */
        post: operations["postOrgInvitations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/org/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Admin+: revoke an invitation (again: no change) */
        delete: operations["deleteOrgInvitationsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import customers from .xlsx or .csv (dry run previews; commit is all-or-nothing) */
        post: operations["importCustomers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import products from .xlsx or .csv (dry run previews; commit is all-or-nothing) */
        post: operations["importProducts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The customers the caller sees (customers: a member's own and the pool, a manager's the organisation's) as .xlsx (default) or csv, with the import's headers */
        get: operations["exportCustomers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The products the caller sees (customers: a member's own and the pool, a manager's the organisation's) as .xlsx (default) or csv, with the import's headers */
        get: operations["getProductsExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The customers the caller sees (a member: theirs and the pool; manager+: the organisation's): owner, filters, search and sort; size up to 1000 */
        get: operations["listCustomers"];
        put?: never;
        /** Add a customer (at least a company, a contact name or an email), held by the caller */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/health-overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Counts per health level, the average score and the 5 most at risk */
        get: operations["getCustomersHealthOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/health-scores": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each customer's health score and level, lowest first by default */
        get: operations["getCustomersHealthScores"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/silent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Customers (not won or lost) silent for longer than customers.silence_days */
        get: operations["getCustomersSilent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One customer's health score with its factors */
        get: operations["getCustomersByIdHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/followups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A customer's follow-up log, latest contact first */
        get: operations["getCustomersByIdFollowups"];
        put?: never;
        /** Log a contact; moves last_contact_at and schedules next_followup_at */
        post: operations["postCustomersByIdFollowups"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One customer */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        /** Delete a customer with its follow-up log (quotations keep their copy) */
        delete: operations["deleteCustomer"];
        options?: never;
        head?: never;
        /** Change a customer; status changes follow the allowed transitions (else 409) */
        patch: operations["updateCustomer"];
        trace?: never;
    };
    "/api/v1/customers/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Transfer, release, set the status of or delete up to 1000 customers, each judged */
        post: operations["postCustomersBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take a customer from the organisation's pool (the pool rules apply) */
        post: operations["postCustomersByIdClaim"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a customer back to the pool with a reason (its holder, or a manager and up) */
        post: operations["postCustomersByIdRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/transfer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Hand a customer to a member of the organisation (manager and up) */
        post: operations["postCustomersByIdTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who held a customer when: create, claim, release, transfer, recycle, oldest first */
        get: operations["getCustomersByIdOwnership"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's product catalogue (q: name or SKU contains; category; sort) */
        get: operations["listProducts"];
        put?: never;
        /** Add a product (manager+; price in minor units; SKU unique in the organisation) */
        post: operations["createProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One product */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        /** Delete a product (manager+; quotations keep their copy of its name and price) */
        delete: operations["deleteProduct"];
        options?: never;
        head?: never;
        /** Change a product (manager+) */
        patch: operations["updateProduct"];
        trace?: never;
    };
    "/api/v1/quotations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's quotations, newest first (filters: status, customer_id) */
        get: operations["listQuotations"];
        put?: never;
        /** Create a draft quotation; totals are computed in integer minor units */
        post: operations["createQuotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/quotations/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The quotation (or, `document=proforma`, its proforma invoice) as a buyer-ready PDF (CJK font embedded) or .xlsx */
        get: operations["exportQuotation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/quotations/{id}/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new draft revision of a sent, accepted, rejected or expired quotation
         * @description Same quote number with `revision` + 1 and `previous_id`, the same terms and lines; the old one becomes `superseded`. 409 `quotation_not_revisable` for a draft or an already superseded quotation.
         */
        post: operations["postQuotationsByIdRevisions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/quotations/{id}/duplicate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new draft with a new number, the same customer, terms and lines */
        post: operations["postQuotationsByIdDuplicate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/quotations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One quotation with its items */
        get: operations["getQuotation"];
        put?: never;
        post?: never;
        /** Delete a quotation and its items */
        delete: operations["deleteQuotation"];
        options?: never;
        head?: never;
        /**
         * Edit a draft (items are replaced and totals recomputed) or move its status
         * @description Statuses: draft -> sent -> accepted | rejected | expired (a revision makes one `superseded`). Content edits need a draft (409 otherwise). Marking it sent needs every line priced (409 `quotation_unpriced` naming the lines); sent moves its customer to `quoted`, accepted to `won`, never back.
         */
        patch: operations["updateQuotation"];
        trace?: never;
    };
    "/api/v1/quotations/{id}/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail the quotation (PDF or xlsx attached) to the buyer, mark it sent, log a follow-up
         * @description The document goes through the configured mail (SMTP or the HTTP mail API) with reply-to the sending member; once the provider has taken it, the quotation becomes `sent` (a sent one may be sent again) and a follow-up (channel email, the message as its note) is logged on its customer. A refused or failed mail writes nothing (502 `mail_failed`, `reason`). Idempotent under `Idempotency-Key`: a repeat answers the first outcome and mails nothing.
         */
        post: operations["sendQuotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exchange/rates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Reference rates of the newest day for a base currency, with their date and source */
        get: operations["getExchangeRates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/exchange/convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Converts an amount exactly; the result is rounded half-even to the target's minor unit */
        get: operations["getExchangeConvert"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/notifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's notifications, newest first, with the unread count */
        get: operations["getNotifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Mark some of the caller's notifications read or unread (others' ids are ignored) */
        patch: operations["patchNotifications"];
        trace?: never;
    };
    "/api/v1/notifications/read-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark every notification of the caller read */
        post: operations["postNotificationsReadAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/translate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Translate a buyer's message (machine translation, then LLMs), optionally with replies
         * @description Costs the `translate` credits (system config `credits.costs`); refunded when no provider could translate (503). Providers are tried tier by tier (machine translation, then the `translate` task's LLMs), each within its translation quota. With `with_replies`, 3 reply suggestions in the buyer's language with their translations; if they cannot be produced the translation is still returned with `replies: []` and `replies_error: "unavailable"`. Each reply has an `id` (for POST /api/v1/ai/replies/{id}/accept) and its `claims`: every price, MOQ, lead time and spec it states, checked against the catalogue; an unverified one makes the replies be written again once, then the reply is `flagged`. The organisation's glossary (/api/v1/glossary) is applied: machine translation through the provider's glossary, LLMs through the prompt with a miss repaired once; `glossary` lists the terms of the text `applied` and the `mismatches`. Send an Idempotency-Key header to make a retry charge once; `quote_id` charges a quote.
         */
        post: operations["translate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/translations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's translation history, newest first */
        get: operations["getTranslations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/translations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's translations */
        get: operations["getTranslationsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/glossary/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import glossary terms from .xlsx or .csv (manager+): valid rows are added or replace the pair's term, invalid rows are listed
         * @description Columns: source_term and target_term (required), source_lang, target_lang (else the query's), note; English or Chinese headers. The customer import's limits: 10 MB, 5,000 rows, at most 1,000 errors listed. `dry_run=true` validates and writes nothing.
         */
        post: operations["postGlossaryImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/glossary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's glossary (every member reads it), newest first; filters by language pair and text */
        get: operations["getGlossary"];
        put?: never;
        /**
         * Add a term: how the seller's own word (a product name, a brand) is said in a buyer's language (manager+)
         * @description Languages are kept as their primary subtag (`en-GB` -> `en`). Translations into `target_lang` use the term: machine translation through the provider's glossary, LLMs through the prompt, and each answer says which terms it applied and which it missed.
         */
        post: operations["postGlossary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/glossary/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a term (manager+) */
        delete: operations["deleteGlossaryById"];
        options?: never;
        head?: never;
        /** Change a term (manager+) */
        patch: operations["patchGlossaryById"];
        trace?: never;
    };
    "/api/v1/ai/chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ask the assistant: an FAQ match answers instantly and free, else the model (billed)
         * @description Charges `credits.costs.chat` unless an FAQ matches. May return `action` (e.g. `add_customer` with customer fields) for the user to confirm; nothing is saved by it. With `stream=true` in the query or `stream: true` in the body the answer is `text/event-stream`: `meta` {conversation_id}, `delta` {text} per chunk, then `done` {message_id, action, credits_charged, balance}, or `error` {detail} (credits refunded, nothing stored). 402/404/503 come as JSON before a stream. A stream ends with its session: within about a second of a logout, a password change, the account being disabled or the access token expiring, an `error` {detail} ends it (the turn is abandoned and refunded). 429 (JSON, Retry-After) when the caller already holds `STREAMS_PER_USER` open streams (streamed chat and agent events together, default 5). Send an Idempotency-Key header to make a retry charge once (a streamed turn is replayed).
         */
        post: operations["chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/actions/{id}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Perform an action the assistant proposed to the caller, once
         * @description Performs the `action` of an assistant message (add_customer, log_followup, create_quotation) through the owning route's service, with `edits` over its data, checked by that route's body schema (422, nothing done). Once only: a later confirm (also a concurrent one) answers 200 with the first outcome and `replayed: true`, doing nothing. Errors of the owning route pass through (e.g. 404 for a customer the caller does not see, the customer plan limit). Another user's action, a colleague's included, is 404.
         */
        post: operations["postAiActionsByIdConfirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/quick-questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The admin-configured quick questions (system config ai.quick_questions) */
        get: operations["getAiQuickQuestions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's conversations, last active first, with the latest message's preview */
        get: operations["getAiConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One conversation of the caller with its last 100 messages, oldest first */
        get: operations["getAiConversationsById"];
        put?: never;
        post?: never;
        /** Delete one conversation of the caller and its messages */
        delete: operations["deleteAiConversationsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/faq": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's FAQ, newest first (candidates listed with status candidate) */
        get: operations["getFaq"];
        put?: never;
        /** Add an entry (owner, admin); active by default */
        post: operations["postFaq"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/faq/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an entry (owner, admin) */
        delete: operations["deleteFaqById"];
        options?: never;
        head?: never;
        /** Edit an entry, or approve a candidate with status active (owner, admin) */
        patch: operations["patchFaqById"];
        trace?: never;
    };
    "/api/v1/ai/replies/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The seller sent this suggested reply: it becomes a candidate of the organisation's FAQ
         * @description The reply (an `id` of `replies` in a translation of the caller's, POST /api/v1/translate with_replies) becomes a candidate: question the buyer's message, answer the reply, in the buyer's language. An admin approves it (PATCH /api/v1/faq/{id} status active). Accepting it again answers 200 with the same candidate; the first accept answers 201.
         */
        post: operations["postAiRepliesByIdAccept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/marketing/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate marketing material, optionally about one of the caller's products (billed)
         * @description Costs `credits.costs.marketing` credits, or exactly the quote's with `quote_id` (POST /api/v1/credits/quote). The material is stored (see GET /api/v1/marketing/contents). A provider outage answers 503 and returns the credits. Send an Idempotency-Key to retry safely.
         */
        post: operations["generateMarketingContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/marketing/contents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's generated material, newest first (filter: kind) */
        get: operations["getMarketingContents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/marketing/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Track what happened to a piece of material (copy, share, open, click, reply, order...) */
        post: operations["postMarketingEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/marketing/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's marketing event counts by type over UTC days from..to (both included) */
        get: operations["getMarketingStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/customers/{id}/followups/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An AI-drafted follow-up message for one of the caller's customers (billed)
         * @description Costs `credits.costs.followup_draft` credits (a `quote_id` charges what it quoted). Uses the customer's status, last contact, notes and last 5 follow-up logs, and the facts of the products they mention. Every price, MOQ, lead time and spec the draft states is checked against the catalogue (`claims`); an unverified one is written again once, then `flagged`. An empty, placeholder or prompt-echo draft is a failed generation: 503, credits returned. Nothing is logged: send the message, then log the contact.
         */
        post: operations["postCustomersByIdFollowupsDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/quotations/from-inquiry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A draft quotation from a buyer's inquiry text (billed)
         * @description Costs `credits.costs.quotation_from_inquiry` credits. The AI extracts the items; each is matched to the caller's products (exact SKU, else similar name); unmatched items become free lines priced at the buyer's target price or 0. The credits are returned if no quotation results.
         */
        post: operations["draftQuotationFromInquiry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discovery/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find prospective buyer companies for a product in a market (billed)
         * @description Runs 3 web-search queries (importers; distributors and wholesalers; buyers) over the configured search providers, then an AI analysis of the results into companies with a fit score, best first; bounded to 120 s. Each company says its `role` to the seller (with `role_reason`), the search result each field came from (`sources`), and `existing_customer_id` when it is a customer the caller sees. Costs `credits.costs.discovery` credits (or the quote's, with `quote_id`); a search that finds no company is refunded (`credits_charged: 0`); when no search provider or AI provider answers, 503 and the credits are returned. The result is not saved: POST /api/v1/discovery/records saves it. Send an Idempotency-Key to retry safely.
         */
        post: operations["postDiscoverySearch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discovery/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a discovery search in the background (billed); poll the job for progress
         * @description Same body, feature, price and Idempotency-Key handling as POST /discovery/search, but answers 202 at once with `Location: /api/v1/discovery/jobs/{id}`; GET it for the progress of each query and of the analysis, then the result (saved as a discovery record too). A failed search fails the job and returns the credits; a job that finds no company succeeds and is refunded (`credits_charged: 0`).
         */
        post: operations["postDiscoveryJobs"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discovery/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A background discovery search: status, progress per query and analysis, the result */
        get: operations["getDiscoveryJobsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discovery/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's saved discovery searches, newest first (filter: q) */
        get: operations["getDiscoveryRecords"];
        put?: never;
        /** Save a discovery search (product, market and the companies kept) to the history */
        post: operations["postDiscoveryRecords"];
        /** Delete a saved discovery search named by `?id=` (same as the path form) */
        delete: operations["deleteDiscoveryRecords"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/discovery/records/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved discovery search */
        get: operations["getDiscoveryRecordsById"];
        put?: never;
        post?: never;
        /** Delete a saved discovery search */
        delete: operations["deleteDiscoveryRecordsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an AI Digital Employee run: search, analysis, outreach drafts, auto-save (billed)
         * @deprecated
         * @description Alias of `POST /api/v1/agent/start`, kept for older clients. Costs `credits.costs.agent_run` credits (exactly the quote's with `quote_id`, POST /api/v1/credits/quote), charged now, at most `max_credits`, and returned if the search fails or finds no lead. With `max_credits` below the price the run stops at the stage boundary where the next stage (an equal share of the price each of search, analysis, outreach and save) would pass it: status `budget_exhausted`, its leads kept, the unused rest refunded (ADR 0108). `credits_charged` says what the run costs so far. The run continues in the background; poll GET /agent/{id} for its pipeline_data.
         */
        post: operations["legacyPostAgentStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's agent runs, newest first (without the full pipeline_data)
         * @deprecated
         * @description Alias of `GET /api/v1/agent/pipelines`, kept for older clients.
         */
        get: operations["legacyGetAgentPipelines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One agent run with pipeline_data {stages, leads, summary}
         * @deprecated
         * @description Alias of `GET /api/v1/agent/{id}`, kept for older clients.
         */
        get: operations["legacyGetAgentById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Server-sent events of one agent run: its state, then each stage change, then its end
         * @deprecated
         * @description Alias of `GET /api/v1/agent/{id}/events`, kept for older clients. `text/event-stream`. First `state` {id, status, error, stages, summary, finished_at} (the run as it is now; `stages` as in pipeline_data, without the leads); then, as they happen, `status` {status} when the run's status changes and `stage` {name, status, started_at, finished_at, detail} for each stage that starts or ends; when the run has ended (succeeded, failed, cancelled or budget_exhausted) a final `end` {status, error, summary, finished_at}, and the stream closes. Changes are read every 0.5 s; a quiet stream gets a comment line every 15 s and closes after 10 minutes (reconnect: the first event is the current state again). The stream ends with its session: within about a second of a logout, a password change, the account being disabled or the access token expiring, an `error` {detail} and the stream closes (reconnect with a fresh token). When the server restarts, a `reconnect` {detail} with `retry: 1000` and the stream closes: an EventSource reconnects by itself (to another instance) a second later and gets the current state first. 404 (JSON, before any event) when the run is not the caller's; 429 (JSON, Retry-After) when the caller already holds `STREAMS_PER_USER` open streams (agent events and streamed chat together, default 5).
         */
        get: operations["legacyGetAgentByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a queued or running agent run; the unused stages' credits are refunded
         * @deprecated
         * @description Alias of `POST /api/v1/agent/{id}/cancel`, kept for older clients. The run becomes `cancelled` at once; its worker writes nothing more. Refund: the run's charge times the stages not started (of search, analysis, outreach, save) divided by 4, rounded down: a queued run gets everything back. A run that already ended is 409 and refunds nothing, so cancelling twice refunds once.
         */
        post: operations["legacyPostAgentByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an AI Digital Employee run: search, analysis, outreach drafts, auto-save (billed)
         * @description Costs `credits.costs.agent_run` credits (exactly the quote's with `quote_id`, POST /api/v1/credits/quote), charged now, at most `max_credits`, and returned if the search fails or finds no lead. With `max_credits` below the price the run stops at the stage boundary where the next stage (an equal share of the price each of search, analysis, outreach and save) would pass it: status `budget_exhausted`, its leads kept, the unused rest refunded (ADR 0108). `credits_charged` says what the run costs so far. The run continues in the background; poll GET /agent/{id} for its pipeline_data.
         */
        post: operations["postAgentStart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent/pipelines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's agent runs, newest first (without the full pipeline_data) */
        get: operations["getAgentPipelines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One agent run with pipeline_data {stages, leads, summary} */
        get: operations["getAgentById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Server-sent events of one agent run: its state, then each stage change, then its end
         * @description `text/event-stream`. First `state` {id, status, error, stages, summary, finished_at} (the run as it is now; `stages` as in pipeline_data, without the leads); then, as they happen, `status` {status} when the run's status changes and `stage` {name, status, started_at, finished_at, detail} for each stage that starts or ends; when the run has ended (succeeded, failed, cancelled or budget_exhausted) a final `end` {status, error, summary, finished_at}, and the stream closes. Changes are read every 0.5 s; a quiet stream gets a comment line every 15 s and closes after 10 minutes (reconnect: the first event is the current state again). The stream ends with its session: within about a second of a logout, a password change, the account being disabled or the access token expiring, an `error` {detail} and the stream closes (reconnect with a fresh token). When the server restarts, a `reconnect` {detail} with `retry: 1000` and the stream closes: an EventSource reconnects by itself (to another instance) a second later and gets the current state first. 404 (JSON, before any event) when the run is not the caller's; 429 (JSON, Retry-After) when the caller already holds `STREAMS_PER_USER` open streams (agent events and streamed chat together, default 5).
         */
        get: operations["getAgentByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/agent/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a queued or running agent run; the unused stages' credits are refunded
         * @description The run becomes `cancelled` at once; its worker writes nothing more. Refund: the run's charge times the stages not started (of search, analysis, outreach, save) divided by 4, rounded down: a queued run gets everything back. A run that already ended is 409 and refunds nothing, so cancelling twice refunds once.
         */
        post: operations["postAgentByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ai/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's AI calls (manager+: the organisation's), newest first
         * @description One row per provider attempt, a failed one included: task, provider, model, tokens, latency, outcome and the credits of the billed operation it answered. Filters combine; dates are UTC days.
         */
        get: operations["getAiUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users, revenue, credits and AI calls per UTC day (default the last 30 days) */
        get: operations["getAdminStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users, newest first, with search and filters */
        get: operations["getAdminUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user */
        get: operations["getAdminUsersById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change role, plan or status (disabling signs the user out everywhere)
         * @description The last active admin is kept: demoting or disabling it (oneself included) is a 409, decided in the statement that writes, so two admins demoting each other at once leave one.
         */
        patch: operations["patchAdminUsersById"];
        trace?: never;
    };
    "/api/v1/admin/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organisations, newest first: plan in effect, seats, members, owner and balance */
        get: operations["getAdminOrgs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/usage-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage log rows, newest first, filtered by user, event and UTC dates */
        get: operations["getAdminUsageLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Admin writes, newest first: actor, action, target, changed fields, request id
         * @description Every write under /api/v1/admin (and `npm run admin:grant`) leaves one row, written in the same statement as the change. Filters combine; dates are UTC days.
         */
        get: operations["getAdminAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/system-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every system config entry */
        get: operations["getAdminSystemConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/system-config/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One system config entry */
        get: operations["getAdminSystemConfigByKey"];
        /** Replace one system config value (validated against the key's schema) */
        put: operations["putAdminSystemConfigByKey"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisations' wallets with their owners, largest first */
        get: operations["getAdminCreditUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-consumptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deductions, newest first, by user, operation and status */
        get: operations["getAdminCreditConsumptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-users/{user_id}/adjust": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add or remove credits of the user's organisation's wallet with a reason; written to the ledger with the admin's id */
        post: operations["postAdminCreditUsersByUserIdAdjust"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All credit packages, retired ones included */
        get: operations["getAdminCreditPackages"];
        put?: never;
        /** Create a credit package */
        post: operations["postAdminCreditPackages"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-packages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Retire a credit package (orders keep referring to it) */
        delete: operations["deleteAdminCreditPackagesById"];
        options?: never;
        head?: never;
        /** Change a credit package */
        patch: operations["patchAdminCreditPackagesById"];
        trace?: never;
    };
    "/api/v1/admin/credit-plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All subscription plans, retired ones included */
        get: operations["getAdminCreditPlans"];
        put?: never;
        /** Create a subscription plan */
        post: operations["postAdminCreditPlans"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/credit-plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Retire a subscription plan (subscribers keep it until their period ends) */
        delete: operations["deleteAdminCreditPlansById"];
        options?: never;
        head?: never;
        /** Change a subscription plan (its code is permanent) */
        patch: operations["patchAdminCreditPlansById"];
        trace?: never;
    };
    "/api/v1/admin/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Orders, newest first, by search, status, pay_type and UTC date range */
        get: operations["getAdminPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/payments/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Revenue per UTC day, pay_type and currency, and orders by status (default 30 days) */
        get: operations["getAdminPaymentsStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/payments/{order_no}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund all or part of a paid order; its credits or subscription are taken back */
        post: operations["postAdminPaymentsByOrderNoRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/certifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Certifications, most recently changed first, by status */
        get: operations["getAdminCertifications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/certifications/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a pending certification; the user is notified */
        post: operations["postAdminCertificationsByIdApprove"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/certifications/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a pending certification with a reason; the user is notified and may resubmit */
        post: operations["postAdminCertificationsByIdReject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invoice requests, newest first, by status or user */
        get: operations["getAdminInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/invoices/{id}/issue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark an invoice issued with its number; the user is notified */
        post: operations["postAdminInvoicesByIdIssue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/ai-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** AI providers by name, filtered by kind and enabled (keys are never returned) */
        get: operations["getAdminAiProviders"];
        put?: never;
        /** Add an AI provider; its API key is stored encrypted and is write-only */
        post: operations["postAdminAiProviders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/ai-providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One AI provider */
        get: operations["getAdminAiProvidersById"];
        put?: never;
        post?: never;
        /** Delete an AI provider and its translation quotas */
        delete: operations["deleteAdminAiProvidersById"];
        options?: never;
        head?: never;
        /**
         * Change an AI provider (`api_key: null` clears the key; leaving it out keeps it)
         * @description A new `base_url` must be public or listed in OUTBOUND_ALLOW_HOSTS (https in production), and needs `api_key` in the same request when a key is stored (422 otherwise), so a stored key is never sent to a host it was not entered for.
         */
        patch: operations["patchAdminAiProvidersById"];
        trace?: never;
    };
    "/api/v1/admin/ai-routing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The AI routing (system config ai.routing) and what each task will actually run */
        get: operations["getAdminAiRouting"];
        /** Replace the AI routing: task -> ordered `provider` or `provider:model` entries naming existing llm providers (a task left out gets an empty list: every enabled llm provider) */
        put: operations["putAdminAiRouting"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/translation-quotas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Translation quotas with their current use, by provider name and period */
        get: operations["getAdminTranslationQuotas"];
        put?: never;
        /** Add a provider's daily or monthly character quota (one per provider and period) */
        post: operations["postAdminTranslationQuotas"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/translation-quotas/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One translation quota */
        get: operations["getAdminTranslationQuotasById"];
        put?: never;
        post?: never;
        /** Delete a translation quota */
        delete: operations["deleteAdminTranslationQuotasById"];
        options?: never;
        head?: never;
        /** Change a translation quota's period, limit or enabled flag */
        patch: operations["patchAdminTranslationQuotasById"];
        trace?: never;
    };
    "/api/v1/admin/translation-quotas/{id}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Zero the quota's use and start its period at the current UTC day or month */
        post: operations["postAdminTranslationQuotasByIdReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/faq": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** FAQ entries by sort order, filtered by enabled and question text */
        get: operations["getAdminFaq"];
        put?: never;
        /** Add an FAQ entry the assistant answers instantly and free */
        post: operations["postAdminFaq"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/faq/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One FAQ entry */
        get: operations["getAdminFaqById"];
        put?: never;
        post?: never;
        /** Delete an FAQ entry */
        delete: operations["deleteAdminFaqById"];
        options?: never;
        head?: never;
        /** Change an FAQ entry */
        patch: operations["patchAdminFaqById"];
        trace?: never;
    };
    "/api/v1/admin/ai-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every AI call, newest first, filtered by task, provider, outcome and UTC dates */
        get: operations["getAdminAiCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/search-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search providers by name, filtered by kind and enabled (keys are never returned)
         * @description Discovery tries the enabled providers in the order of system config `search.providers_order` (entries name a provider or a kind), then by name.
         */
        get: operations["getAdminSearchProviders"];
        put?: never;
        /** Add a search provider; its API key is stored encrypted and is write-only */
        post: operations["postAdminSearchProviders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/search-providers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One search provider */
        get: operations["getAdminSearchProvidersById"];
        put?: never;
        post?: never;
        /** Delete a search provider */
        delete: operations["deleteAdminSearchProvidersById"];
        options?: never;
        head?: never;
        /**
         * Change a search provider (`api_key: null` clears the key; leaving it out keeps it)
         * @description A new `base_url` must be public or listed in OUTBOUND_ALLOW_HOSTS (https in production), and needs `api_key` in the same request when a key is stored (422 otherwise), so a stored key is never sent to a host it was not entered for.
         */
        patch: operations["patchAdminSearchProvidersById"];
        trace?: never;
    };
    "/api/v1/admin/exchange-rates/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refresh the rates from every configured source now (ECB, then the wide source); says what each did */
        post: operations["postAdminExchangeRatesRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/admin/exchange-rates/{currency}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a manual rate for any ISO 4217 currency (1 `base` = `rate` units of it), used over the sources */
        put: operations["putAdminExchangeRatesByCurrency"];
        post?: never;
        /** Remove a currency's manual rate: the sources answer for it again */
        delete: operations["deleteAdminExchangeRatesByCurrency"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's spendable credits, plan, trial end, what expires when, and the caller's monthly limit and use */
        get: operations["getCreditBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organisation's ledger, newest first: a member's own rows, manager+ every member's */
        get: operations["listCreditHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price a billable operation before it runs: the route called with quote_id charges exactly that
         * @description `operation` is the cost key of a billable route (credits.costs), `input` the body that route would get. The answer's `quote_id`, sent as that route's body field `quote_id` within 10 minutes, charges exactly `credits`, once, even if the configured cost changes meanwhile. That route then answers 404 `quote_not_found` for a quote that is not the caller's, 409 `quote_used` when it was spent already (a refunded charge gives it back), `quote_expired` after its time and `quote_wrong_operation` for another operation's quote. Nothing is charged here (ADR 0108).
         */
        post: operations["postCreditsQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/packages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit packages on sale
         * @description Public and cacheable: `Cache-Control: public`, an ETag, 304 on If-None-Match.
         */
        get: operations["listCreditPackages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscription plans; yearly = round(12 x monthly x (1 - plans.yearly_discount))
         * @description Public and cacheable: `Cache-Control: public`, an ETag, 304 on If-None-Match.
         */
        get: operations["listPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's plan in effect, billing cycle, period, renewal and cancel state */
        get: operations["getCreditsSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/subscription/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel at period end: the plan keeps working to its end, then the account is free
         * @description Owner only (billing is the owner's). Marks every running paid subscription of the caller's organisation, whoever paid it; a repeat changes nothing. Paying for a plan again afterwards renews it (the new period is not cancelled).
         */
        post: operations["postCreditsSubscriptionCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/create-order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Order one month of a plan (by plan code) */
        post: operations["createPaymentOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/purchase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Order a credit package */
        post: operations["purchaseCredits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/credits/subscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Order a plan, monthly or yearly */
        post: operations["subscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's orders, newest first */
        get: operations["listPaymentOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/orders/{order_no}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One of the caller's orders and its status */
        get: operations["getPaymentOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unified payment gateway callback (signed, see docs/payment-gateway.md)
         * @description Authenticated by X-Pay-Merchant, X-Pay-Timestamp, X-Pay-Nonce and X-Pay-Signature over the raw body. Every verified event is acknowledged, including duplicates and events that do not match their order (those are recorded for review).
         */
        post: operations["postPaymentsCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/stripe/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stripe webhook (card payments), verified by Stripe-Signature */
        post: operations["postPaymentsStripeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/sandbox/{order_no}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sandbox gateway: the payment page of an order (only without a real gateway) */
        get: operations["getPaymentsSandboxByOrderNo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/sandbox/{order_no}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox gateway: pay (sends a signed payment.succeeded through the callback) */
        post: operations["postPaymentsSandboxByOrderNoPay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/sandbox/{order_no}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sandbox gateway: cancel (sends a signed payment.closed through the callback) */
        post: operations["postPaymentsSandboxByOrderNoCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/referrals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's referral code, link and rewarded referrals */
        get: operations["getReferrals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/certification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's certification and its status */
        get: operations["getCertification"];
        put?: never;
        /** Submit business certification; again only after a rejection */
        post: operations["postCertification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's invoice requests, newest first */
        get: operations["getInvoices"];
        put?: never;
        /** Request an invoice for one of the caller's paid orders (amount less refunds) */
        post: operations["postInvoices"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/wechat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** WeChat server verification: echoes `echostr` when the signature is WeChat's */
        get: operations["getWebhooksWechat"];
        put?: never;
        /** WeChat message push (plaintext, or safe/compatible mode with WECHAT_ENCODING_AES_KEY): a forwarded buyer text is answered with its translation */
        post: operations["postWebhooksWechat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/jobs/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A background job delivered by QStash (Upstash-Signature verified)
         * @description Jobs: `agent-run` `{pipeline_id}` runs (or resumes) an agent pipeline; `discovery-run` `{job_id}` runs a background discovery search. The signature is checked against the raw body and PUBLIC_BASE_URL + path (unset: 503). Any non-2xx answer is retried by QStash; a run that is already finished or held answers 200 as well, and so does a replay of a delivery already run (its signed token's `jti` is recorded), without running.
         */
        post: operations["postJobsByName"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        SeatsTaken: components["schemas"]["Error"] & ({
            /** @enum {string} */
            limit: "seats";
            /** @description Members the plan allows */
            max: number;
        } & {
            [key: string]: unknown;
        });
        Error: {
            /**
             * @description For people; may change
             * @example Not found
             */
            detail: string;
            /**
             * @description Stable and machine-readable: branch on this, never on `detail`
             * @example not_found
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "insufficient_credits" | "forbidden" | "csrf_missing" | "csrf_mismatch" | "csrf_invalid" | "admin_required" | "guest_not_allowed" | "account_disabled" | "feature_not_in_plan" | "plan_limit_reached" | "member_limit_reached" | "signature_invalid" | "not_found" | "method_not_allowed" | "conflict" | "idempotency_conflict" | "payload_too_large" | "validation_failed" | "unknown_currency" | "no_exchange_rate" | "rate_limited" | "internal_error" | "service_unavailable" | "timed_out" | "quota_exhausted" | "quotation_unpriced" | "mail_failed" | "quotation_not_revisable" | "quotation_not_accepted" | "unsupported_script" | "quote_not_found" | "quote_used" | "quote_expired" | "quote_wrong_operation";
            request_id?: string;
        } & {
            [key: string]: unknown;
        };
        ChatStreamEvent: {
            /** @enum {string} */
            event: "meta";
            data: {
                conversation_id: string;
            };
        } | {
            /** @enum {string} */
            event: "delta";
            data: {
                /** @description The next chunk of the answer */
                text: string;
            };
        } | {
            /** @enum {string} */
            event: "done";
            data: {
                message_id: string;
                action: components["schemas"]["AssistantAction"];
                credits_charged: number;
                balance: number;
            };
        } | {
            /** @enum {string} */
            event: "error";
            data: {
                /** @description Why the turn broke off (credits refunded) */
                detail: string;
            };
        };
        AssistantAction: {
            /**
             * Format: uuid
             * @description Perform it with POST /api/v1/ai/actions/{id}/confirm (absent on actions proposed before actions could be confirmed)
             */
            id?: string;
            /** @enum {string} */
            type: "add_customer" | "log_followup" | "create_quotation";
            /** @description The proposed body of the owning route: add_customer, the customer create body (company, contact_name, email, phone, whatsapp, country, notes); log_followup, the follow-up body plus customer_id; create_quotation, the quotation create body (possibly partial: the confirm's `edits` complete it). Nothing is saved until it is confirmed */
            data: {
                [key: string]: unknown;
            };
        } | null;
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        ValidationError: components["schemas"]["Error"] & ({
            errors: {
                loc: (string | number)[];
                msg: string;
                type: string;
            }[];
        } & {
            [key: string]: unknown;
        });
        NotReady: components["schemas"]["Error"] & ({
            checks: {
                /** @enum {string} */
                database: "ok" | "unavailable";
                /** @enum {string} */
                limiter: "ok" | "unavailable";
            };
        } & {
            [key: string]: unknown;
        });
        CsrfToken: {
            csrf_token: string;
        };
        Session: {
            access_token: string;
            /** @enum {string} */
            token_type: "bearer";
            expires_in: number;
            /** @description Also set as an httpOnly cookie */
            refresh_token: string;
            /** @description Also set as the csrf_token cookie */
            csrf_token: string;
            user: components["schemas"]["User"] | components["schemas"]["GuestUser"];
        };
        User: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string | null;
            name: string | null;
            company: string | null;
            phone: string | null;
            country: string | null;
            language: string | null;
            /** @enum {string} */
            role: "user" | "admin";
            /** @enum {string} */
            status: "active" | "disabled";
            is_guest: boolean;
            plan: string;
            /** Format: date-time */
            plan_expires_at: string | null;
            /** Format: date-time */
            trial_ends_at: string | null;
            is_trial_active: boolean;
            referral_code: string;
            credits: number;
            has_wechat: boolean;
            /** Format: date-time */
            created_at: string;
            email_verified: boolean;
            /** @description Feature codes of the plan in effect (GET /auth/me) */
            features?: string[];
            limits?: components["schemas"]["PlanLimits"];
            /** @description The caller's organisation and role there (GET /auth/me) */
            org?: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @enum {string} */
                role: "owner" | "admin" | "manager" | "member";
            };
        };
        /** @description Each limit of the organisation's plan with its max (null = unlimited) and the organisation's usage (GET /auth/me) */
        PlanLimits: {
            customers: components["schemas"]["PlanLimitUsage"];
            agent_runs_per_month: components["schemas"]["PlanLimitUsage"] & unknown;
            seats: components["schemas"]["PlanLimitUsage"] & unknown;
        };
        /** @description Customers kept at once */
        PlanLimitUsage: {
            /** @description null = unlimited */
            max: number | null;
            used: number;
        };
        GuestUser: {
            /** Format: uuid */
            id: string;
            /** @enum {boolean} */
            is_guest: true;
            name: string | null;
            /** @enum {string} */
            role: "user";
            plan: string;
            credits: number;
            /** Format: date-time */
            created_at: string;
            /** @description Feature codes of the plan in effect (GET /auth/me) */
            features?: string[];
            limits?: components["schemas"]["PlanLimits"];
            /** @description The caller's organisation and role there (GET /auth/me) */
            org?: {
                /** Format: uuid */
                id: string;
                name: string;
                /** @enum {string} */
                role: "owner" | "admin" | "manager" | "member";
            };
        };
        RegisterRequest: {
            /**
             * Format: email
             * @example seller@example.com
             */
            email: string;
            password: string;
            name?: string;
            referral_code?: string;
        };
        LoginRequest: {
            /**
             * Format: email
             * @example seller@example.com
             */
            email: string;
            password: string;
        };
        WechatLoginRequest: {
            code: string;
        };
        RefreshRequest: {
            /** @description For clients without cookies; browsers send the cookie */
            refresh_token?: string;
        };
        Detail: {
            detail: string;
        };
        PasswordChangeRequest: {
            /** @description Required on an account with a password. An account without one (WeChat sign-in) sets its first password with its address: POST /api/v1/auth/email */
            old_password?: string;
            new_password: string;
        };
        EmailVerified: {
            detail: string;
            /**
             * Format: email
             * @description The address now verified (the new one after a change)
             */
            email: string;
            /** @enum {boolean} */
            email_verified: true;
            /** @description Sessions of the account this use ended: every one but the caller's own, when the request carried it (docs/adr/0084) */
            sessions_ended: number;
        };
        VerifyEmailRequest: {
            /** @description The `token` query parameter of the mailed link */
            token: string;
        };
        ForgotPasswordRequest: {
            /**
             * Format: email
             * @example seller@example.com
             */
            email: string;
        };
        ResetPasswordRequest: {
            /** @description The `token` query parameter of the mailed link */
            token: string;
            new_password: string;
        };
        EmailChangeRequest: {
            /**
             * Format: email
             * @example seller@example.com
             */
            new_email: string;
            /** @description The current password; on an account without one (WeChat sign-in), the first password to set (6 to 128 characters), which takes effect with the address (docs/adr/0089) */
            password: string;
            /** @description Required on an account without a password: a fresh WeChat OAuth code of the account's own WeChat user, proving the request is the owner's and not a stolen session's */
            wechat_code?: string;
        };
        ProfilePatch: {
            name?: string | null;
            company?: string | null;
            phone?: string | null;
            country?: string | null;
            language?: string | null;
        };
        AccountDeletionCode: {
            sent_to: string;
            expires_in_seconds: number;
        };
        AccountDeleteInput: {
            /** @description The account's password (required when it has one) */
            password?: string;
            /** @description For an account without a password: the code mailed by POST /api/v1/users/me/deletion-code */
            code?: string;
        };
        UsageStats: {
            /** Format: date */
            start_date: string;
            /** Format: date */
            end_date: string;
            total: number;
            by_event: {
                [key: string]: number;
            };
            days: {
                /** Format: date */
                date: string;
                total: number;
                events: {
                    [key: string]: number;
                };
            }[];
        };
        Org: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The plan in effect */
            plan: string;
            /** @description Members the plan allows; null: unlimited */
            seats: number | null;
            member_count: number;
            role: components["schemas"]["OrgRole"];
            settings: components["schemas"]["OrgSettings"];
        };
        /**
         * @description The caller's role
         * @enum {string}
         */
        OrgRole: "owner" | "admin" | "manager" | "member";
        OrgSettings: {
            pool: components["schemas"]["PoolRules"];
        };
        PoolRules: {
            /** @description A held customer with no follow-up for N days returns to the pool overnight */
            recycle_after_days: number | null;
            /** @description Days before recycling that the holder is notified */
            warn_days_before: number | null;
            /** @description Statuses never recycled */
            exempt_statuses: ("new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant")[];
            /** @description Claims from the pool per member per UTC day */
            max_claims_per_day: number | null;
            /** @description Customers one member may hold */
            max_customers_per_member: number | null;
            /** @description Days before a former holder may claim a customer they released or lost */
            reclaim_cooldown_days: number | null;
        };
        OrgPatch: {
            name?: string;
            settings?: components["schemas"]["OrgSettingsPatch"];
        };
        OrgSettingsPatch: {
            pool?: {
                /** @description A held customer with no follow-up for N days returns to the pool overnight */
                recycle_after_days?: number | null;
                /** @description Days before recycling that the holder is notified */
                warn_days_before?: number | null;
                /** @description Statuses never recycled */
                exempt_statuses?: ("new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant")[];
                /** @description Claims from the pool per member per UTC day */
                max_claims_per_day?: number | null;
                /** @description Customers one member may hold */
                max_customers_per_member?: number | null;
                /** @description Days before a former holder may claim a customer they released or lost */
                reclaim_cooldown_days?: number | null;
            };
        };
        DocumentSettings: {
            legal_name: string | null;
            address: string | null;
            phone: string | null;
            /** Format: email */
            email: string | null;
            website: string | null;
            /** @description base64, as stored */
            logo: string | null;
            /** @enum {string|null} */
            logo_type: "image/png" | "image/jpeg" | null;
            bank_details: string | null;
            payment_terms: string | null;
            validity_days: number | null;
            footer: string | null;
            /**
             * Format: date-time
             * @description Last change; null: never set (every field null)
             */
            updated_at: string | null;
        };
        DocumentSettingsInput: {
            /** @description The company's registered name, printed at the head of every document */
            legal_name?: string | null;
            /** @description Postal address, lines separated by "\n" */
            address?: string | null;
            /** @description Telephone */
            phone?: string | null;
            /** @description Contact e-mail */
            email?: "" | string | null;
            /** @description Website, http(s) */
            website?: "" | string | null;
            /** @description PNG or JPEG, base64 (a `data:image/png;base64,` prefix is accepted), at most 512 KB decoded: 413 `payload_too_large` when larger, 422 when not a PNG or JPEG; null removes it */
            logo?: string | null;
            /** @description Bank, account, SWIFT/BIC, IBAN: what the buyer pays the deposit to */
            bank_details?: string | null;
            /** @description e.g. "30% deposit, 70% balance before shipment": the first percentage before "deposit" (or "advance") splits a proforma invoice */
            payment_terms?: string | null;
            /** @description Days an offer holds from its date */
            validity_days?: number | null;
            /** @description A line or two at the foot of every page */
            footer?: string | null;
        };
        OrgMemberList: {
            items: components["schemas"]["OrgMember"][];
        };
        OrgMember: {
            user_id: string;
            /** Format: email */
            email: string;
            name: string | null;
            role: components["schemas"]["OrgRole"];
            /** Format: date-time */
            joined_at: string;
            /** @description Customers the member holds */
            customer_count: number;
            /** @description Credits charged to the member since the start of the UTC month */
            credits_used_month: number;
            /** @description null: no limit */
            monthly_credit_limit: number | null;
        };
        OrgMemberPatch: {
            /**
             * @description `owner` changes hands only through POST /api/v1/org/transfer-ownership
             * @enum {string}
             */
            role?: "admin" | "manager" | "member";
            /** @description Credits per UTC month; null: no limit */
            monthly_credit_limit?: number | null;
        };
        OrgDeparture: {
            user_id: string;
            customers_moved: number;
            /** @description Who holds them now; null: the pool */
            to_user_id: string | null;
            /** @description The departed member's new personal organisation */
            new_org_id: string;
        };
        OrgMemberRemove: {
            /**
             * Format: uuid
             * @description A member who takes over the removed member's customers; else the pool
             */
            transfer_to?: string;
        };
        OrgTransferOwnership: {
            /** Format: uuid */
            user_id: string;
        };
        OrgInvitationAccepted: {
            org_id: string;
            /** @enum {string} */
            role: "admin" | "manager" | "member";
            previous_org_id: string;
            brought_data: boolean;
            credits_moved: number;
            /** @description Brought products whose SKU the catalogue already had: kept, SKU cleared */
            products_without_sku: number;
        };
        OrgInvitation: {
            /** Format: uuid */
            id: string;
            /** Format: email */
            email: string;
            /**
             * @description `owner` changes hands only through POST /api/v1/org/transfer-ownership
             * @enum {string}
             */
            role: "admin" | "manager" | "member";
            invited_by: string | null;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            created_at: string;
        };
        OrgInvitationList: {
            items: components["schemas"]["OrgInvitation"][];
        };
        ImportResult: {
            dry_run: boolean;
            rows: number;
            valid: number;
            invalid: number;
            /** @description Valid rows matching an existing row or an earlier row */
            duplicates: number;
            /** @description Customer rows matching a pool customer the caller (a member) may not change: left unchanged, previewed with action `skip`; claim the customer first */
            skipped: number;
            /** @description Rows this request inserted: 0 on a dry run and on a refused import */
            created: number;
            /** @description Rows this request updated: 0 on a dry run and on a refused import */
            updated: number;
            /** @description Rows the file creates when committed (equal to `created` once committed) */
            would_create: number;
            /** @description Existing rows the file updates when committed */
            would_update: number;
            ignored_columns: string[];
            preview: {
                [key: string]: unknown;
            }[];
            errors: {
                row: number;
                column: string;
                message: string;
            }[];
            errors_truncated: boolean;
        };
        PlanDenied: components["schemas"]["Error"] & ({
            /** @example The agent feature is not in your plan (free). Plans that include it: Business. */
            detail?: string;
            /** @description The feature the route needs */
            feature?: string;
            /** @description The plan limit that was reached */
            limit?: string;
            max?: number;
            /** @description The caller's plan in effect */
            plan?: string;
            /** @description Codes of the plans that include the feature or allow more */
            plans?: string[];
        } & {
            [key: string]: unknown;
        });
        ImportRejected: components["schemas"]["Error"] & ({
            dry_run?: boolean;
            rows?: number;
            valid?: number;
            invalid?: number;
            /** @description Valid rows matching an existing row or an earlier row */
            duplicates?: number;
            /** @description Customer rows matching a pool customer the caller (a member) may not change: left unchanged, previewed with action `skip`; claim the customer first */
            skipped?: number;
            /** @description Rows this request inserted: 0 on a dry run and on a refused import */
            created?: number;
            /** @description Rows this request updated: 0 on a dry run and on a refused import */
            updated?: number;
            /** @description Rows the file creates when committed (equal to `created` once committed) */
            would_create?: number;
            /** @description Existing rows the file updates when committed */
            would_update?: number;
            ignored_columns?: string[];
            errors: {
                row: number;
                column: string;
                message: string;
            }[];
            errors_truncated?: boolean;
            /** @description Why the file could not be read */
            reason?: string;
        } & {
            [key: string]: unknown;
        });
        CustomerPage: {
            items: components["schemas"]["Customer"][];
            total: number;
            page: number;
            size: number;
        };
        Customer: {
            /** Format: uuid */
            id: string;
            /** @description The organisation the customer belongs to */
            org_id: string;
            /** @description The member who holds it; null: the pool */
            user_id: string | null;
            /** @description The holder's name; null in the pool (or no name given) */
            owner_name: string | null;
            company: string | null;
            contact_name: string | null;
            /** Format: email */
            email: string | null;
            phone: string | null;
            whatsapp: string | null;
            country: string | null;
            source: string | null;
            tags: string[];
            status: components["schemas"]["CustomerStatus"];
            notes: string | null;
            /** @description Minor units */
            estimated_value: number | null;
            estimated_currency: string;
            /** Format: date-time */
            last_contact_at: string | null;
            /** Format: date-time */
            next_followup_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** @enum {string} */
        CustomerStatus: "new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant";
        CustomerInput: {
            company?: string | null;
            contact_name?: string | null;
            email?: string | "" | null;
            phone?: string | null;
            whatsapp?: string | null;
            country?: string | null;
            source?: string | null;
            tags?: string[];
            notes?: string | null;
            /** @description Minor units of estimated_currency */
            estimated_value?: number | null;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            estimated_currency?: string;
            /** Format: date-time */
            next_followup_at?: string | null;
            status?: components["schemas"]["CustomerStatus"];
        };
        CustomerHealthOverview: {
            total: number;
            /** @description Mean score, one decimal */
            average: number | null;
            counts: {
                healthy: number;
                watch: number;
                at_risk: number;
                critical: number;
            };
            /** @description The 5 lowest scores among customers not lost */
            most_at_risk: components["schemas"]["CustomerHealthScore"][];
        };
        CustomerHealthScore: {
            customer_id: string;
            /** @description The holder; null: the pool */
            user_id: string | null;
            owner_name: string | null;
            company: string | null;
            contact_name: string | null;
            status: components["schemas"]["CustomerStatus"];
            score: number;
            /** @enum {string} */
            level: "healthy" | "watch" | "at_risk" | "critical";
            /** Format: date-time */
            last_contact_at: string | null;
            /** Format: date-time */
            next_followup_at: string | null;
        };
        CustomerHealthScorePage: {
            items: components["schemas"]["CustomerHealthScore"][];
            total: number;
            page: number;
            size: number;
        };
        SilentCustomerPage: {
            items: components["schemas"]["SilentCustomer"][];
            total: number;
            page: number;
            size: number;
            /** @description customers.silence_days */
            silence_days: number;
        };
        SilentCustomer: components["schemas"]["Customer"] & {
            /**
             * Format: date-time
             * @description Last contact, or creation if never contacted
             * @example 2026-11-24T08:30:00.000Z
             */
            silent_since: string;
            silent_days: number;
        };
        CustomerHealth: {
            customer_id: string;
            score: number;
            /** @enum {string} */
            level: "healthy" | "watch" | "at_risk" | "critical";
            factors: components["schemas"]["CustomerHealthFactor"][];
        };
        CustomerHealthFactor: {
            /** @enum {string} */
            name: "recency" | "punctuality" | "status" | "value";
            /** @description Points this factor is worth */
            weight: number;
            /** @description 0..1; the factor adds weight x value points */
            value: number;
            note: string;
        };
        FollowupPage: {
            items: components["schemas"]["Followup"][];
            total: number;
            page: number;
            size: number;
        };
        Followup: {
            /** Format: uuid */
            id: string;
            user_id: string;
            customer_id: string;
            /** @enum {string} */
            channel: "email" | "phone" | "whatsapp" | "wechat" | "meeting" | "other";
            note: string | null;
            /** Format: date-time */
            contacted_at: string;
            /** Format: date-time */
            next_followup_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        FollowupResult: {
            followup: components["schemas"]["Followup"];
            customer: components["schemas"]["Customer"];
        };
        FollowupInput: {
            /** @enum {string} */
            channel: "email" | "phone" | "whatsapp" | "wechat" | "meeting" | "other";
            note?: string | null;
            /**
             * Format: date-time
             * @description Default now; not in the future
             */
            contacted_at?: string;
            /**
             * Format: date-time
             * @description Default: contacted_at + the cadence of the customer's status; null clears it
             */
            next_followup_at?: string | null;
        };
        CustomerStatusConflict: components["schemas"]["Error"] & ({
            /**
             * @description The current status
             * @enum {string}
             */
            status: "new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant";
            /** @description Statuses reachable from it */
            allowed_statuses: ("new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant")[];
        } & {
            [key: string]: unknown;
        });
        CustomerPatch: {
            company?: string | null;
            contact_name?: string | null;
            email?: string | "" | null;
            phone?: string | null;
            whatsapp?: string | null;
            country?: string | null;
            source?: string | null;
            tags?: string[];
            notes?: string | null;
            /** @description Minor units of estimated_currency */
            estimated_value?: number | null;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            estimated_currency?: string;
            /** Format: date-time */
            next_followup_at?: string | null;
            status?: components["schemas"]["CustomerStatus"];
        };
        CustomerBulkResult: {
            /** @description The ids the action was applied to */
            done: string[];
            /** @description The ids left alone, each with why (`not found` for another's) */
            refused: {
                /** Format: uuid */
                id: string;
                detail: string;
            }[];
        };
        CustomerBulkBody: {
            /** @description 1 to 1000 customer ids; each is judged on its own */
            ids: string[];
            /** @enum {string} */
            action: "transfer" | "release" | "set_status" | "delete";
            /**
             * Format: uuid
             * @description transfer: the new holder, a member of the organisation
             */
            to_user_id?: string;
            /**
             * @description set_status: the new status (the usual transitions apply)
             * @enum {string}
             */
            status?: "new" | "contacted" | "negotiating" | "quoted" | "won" | "lost" | "dormant";
            /** @description release (required), transfer (optional) */
            reason?: string;
        };
        CustomerOwnershipChange: {
            /** Format: uuid */
            id: string;
            /** @description The holder now; null: the pool */
            user_id: string | null;
            event: components["schemas"]["CustomerOwnershipEvent"];
        };
        CustomerOwnershipEvent: {
            /** @description The holder before; null: the pool */
            from_user_id: string | null;
            /** @description The holder after; null: the pool */
            to_user_id: string | null;
            /** @enum {string} */
            action: "create" | "claim" | "release" | "transfer" | "recycle" | "member_removed";
            reason: string | null;
            /** @description Who did it; null for the overnight recycle */
            actor_id: string | null;
            at: string;
        };
        PoolReleaseBody: {
            /** @description Why the customer goes back to the pool (1..500) */
            reason: string;
        };
        PoolTransferBody: {
            /**
             * Format: uuid
             * @description A member of the caller's organisation, the new holder
             */
            to_user_id: string;
            reason?: string;
        };
        CustomerOwnershipPage: {
            items: components["schemas"]["CustomerOwnershipEvent"][];
            total: number;
            page: number;
            size: number;
        };
        ProductsPage: {
            items: components["schemas"]["Product"][];
            total: number;
            page: number;
            size: number;
        };
        Product: {
            /** Format: uuid */
            id: string;
            name: string;
            sku: string | null;
            description: string | null;
            category: string | null;
            unit: string;
            price: number | null;
            currency: string;
            moq: number | null;
            lead_time_days: number | null;
            aliases: string[];
            hs_code: string | null;
            image_url: string | null;
            specs: {
                [key: string]: string;
            } | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ProductPatch: {
            name?: string;
            sku?: string | null;
            description?: string | null;
            category?: string | null;
            unit?: string;
            /** @description Minor units of currency */
            price?: number | null;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            currency?: string;
            moq?: number | null;
            /** @description Days from order to shipment the seller quotes */
            lead_time_days?: number | null;
            /** @description Other names buyers use for the product (any language): an inquiry line naming one matches it */
            aliases?: string[] | null;
            hs_code?: string | null;
            image_url?: string | null;
            specs?: {
                [key: string]: string;
            } | null;
        };
        QuotationsPage: {
            items: components["schemas"]["QuotationSummary"][];
            total: number;
            page: number;
            size: number;
        };
        QuotationSummary: {
            /** Format: uuid */
            id: string;
            quote_no: string;
            customer_id: string | null;
            /** @enum {string} */
            status: "draft" | "sent" | "accepted" | "rejected" | "expired" | "superseded";
            currency: string;
            /** @enum {string|null} */
            incoterm: "EXW" | "FCA" | "FAS" | "FOB" | "CFR" | "CIF" | "CPT" | "CIP" | "DAP" | "DPU" | "DDP" | null;
            /**
             * Format: date
             * @example 2026-11-24
             */
            valid_until: string | null;
            /** @description Minor units: the sum of line totals */
            subtotal: number;
            discount: number;
            shipping: number;
            /** @description Minor units: subtotal - discount + shipping */
            total: number;
            notes: string | null;
            /** @description Rates used to convert products priced in another currency, one per pair, frozen when the items were priced */
            exchange_rates: components["schemas"]["QuotationQuotedRate"][];
            /** @description What the seller should check before sending: `stale_exchange_rate` for each rate older than 7 days */
            warnings: components["schemas"]["QuotationWarning"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The organisation the quotation belongs to */
            org_id: string;
            /** @description The member who made it (the seller on its documents) */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
            /** @description 0 for the original; each revision keeps quote_no and counts up (`-R1`, `-R2`) */
            revision: number;
            /** @description The quotation this revision replaced (now `superseded`) */
            previous_id: string | null;
            buyer_address: string | null;
            named_place: string | null;
            port_of_loading: string | null;
            lead_time: string | null;
            packing: string | null;
            /** @description The proforma invoice's number (the organisation's `PI-YYYY-NNNN` series), issued on its first export */
            proforma_no: string | null;
            /**
             * Format: date
             * @description The proforma invoice's issue date (UTC)
             * @example 2026-11-24
             */
            proforma_date: string | null;
            item_count: number;
        };
        QuotationQuotedRate: components["schemas"]["QuotationExchangeRate"] & {
            /**
             * @description Whole days from the rate's date to today (UTC)
             * @example 1
             */
            age_days: number;
        };
        QuotationExchangeRate: {
            /** @example USD */
            from: string;
            /** @example CNY */
            to: string;
            /**
             * @description 1 `from` = `rate` `to`
             * @example 7.15146535196
             */
            rate: string;
            /**
             * Format: date
             * @example 2024-01-04
             */
            date: string;
            /** @example ECB */
            source: string;
        };
        QuotationWarning: {
            /** @enum {string} */
            code: "stale_exchange_rate";
            /** @example The USD/CNY rate (ECB, 2024-01-04) is 9 days old: reprice or check it before sending */
            detail: string;
        };
        Quotation: {
            /** Format: uuid */
            id: string;
            quote_no: string;
            customer_id: string | null;
            /** @enum {string} */
            status: "draft" | "sent" | "accepted" | "rejected" | "expired" | "superseded";
            currency: string;
            /** @enum {string|null} */
            incoterm: "EXW" | "FCA" | "FAS" | "FOB" | "CFR" | "CIF" | "CPT" | "CIP" | "DAP" | "DPU" | "DDP" | null;
            /**
             * Format: date
             * @example 2026-11-24
             */
            valid_until: string | null;
            /** @description Minor units: the sum of line totals */
            subtotal: number;
            discount: number;
            shipping: number;
            /** @description Minor units: subtotal - discount + shipping */
            total: number;
            notes: string | null;
            /** @description Rates used to convert products priced in another currency, one per pair, frozen when the items were priced */
            exchange_rates: components["schemas"]["QuotationQuotedRate"][];
            /** @description What the seller should check before sending: `stale_exchange_rate` for each rate older than 7 days */
            warnings: components["schemas"]["QuotationWarning"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /** @description The organisation the quotation belongs to */
            org_id: string;
            /** @description The member who made it (the seller on its documents) */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
            /** @description 0 for the original; each revision keeps quote_no and counts up (`-R1`, `-R2`) */
            revision: number;
            /** @description The quotation this revision replaced (now `superseded`) */
            previous_id: string | null;
            buyer_address: string | null;
            named_place: string | null;
            port_of_loading: string | null;
            lead_time: string | null;
            packing: string | null;
            /** @description The proforma invoice's number (the organisation's `PI-YYYY-NNNN` series), issued on its first export */
            proforma_no: string | null;
            /**
             * Format: date
             * @description The proforma invoice's issue date (UTC)
             * @example 2026-11-24
             */
            proforma_date: string | null;
            items: components["schemas"]["QuotationItem"][];
        };
        QuotationItem: {
            /** Format: uuid */
            id: string;
            product_id: string | null;
            position: number;
            name: string;
            description: string | null;
            unit: string;
            quantity: number;
            unit_price: number;
            line_total: number;
        };
        QuotationItemInput: {
            /** Format: uuid */
            product_id?: string | null;
            /** @description Required unless product_id is given (then the product's name is the default) */
            name?: string;
            quantity: number;
            /** @description Minor units of the quotation's currency; defaults to the product's price, converted at the stored exchange rate when the product is priced in another currency */
            unit_price?: number;
            unit?: string;
            description?: string | null;
        };
        QuotationPatch: {
            /** Format: uuid */
            customer_id?: string | null;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            currency?: string;
            /** @enum {string|null} */
            incoterm?: "EXW" | "FCA" | "FAS" | "FOB" | "CFR" | "CIF" | "CPT" | "CIP" | "DAP" | "DPU" | "DDP" | null;
            /** Format: date */
            valid_until?: string | null;
            discount?: number;
            shipping?: number;
            notes?: string | null;
            /** @description The buyer's postal address, lines separated by "\n" */
            buyer_address?: string | null;
            /** @description The Incoterm's named place ("Ningbo" of "FOB Ningbo") */
            named_place?: string | null;
            /** @description Port of loading */
            port_of_loading?: string | null;
            /** @description e.g. "25 days after deposit" */
            lead_time?: string | null;
            /** @description Packing lines, separated by "\n" ("20 pcs per carton") */
            packing?: string | null;
            /** @enum {string} */
            status?: "draft" | "sent" | "accepted" | "rejected" | "expired" | "superseded";
            /** @description Replaces every item; totals are recomputed */
            items?: components["schemas"]["QuotationItemInput"][];
            /** @description With items: convert products priced in another currency at today's rates instead of the rates frozen in exchange_rates */
            reprice?: boolean;
        };
        QuotationSendResult: {
            quotation: components["schemas"]["Quotation"];
            followup: components["schemas"]["Followup"] & (Record<string, never> | null);
            mail: {
                to: string[];
                cc: string[];
                /** @description The sending member's address; null when the account has none */
                reply_to: string | null;
                subject: string;
                /** @enum {string} */
                format: "pdf" | "xlsx";
                filename: string;
                bytes: number;
                /** @enum {string} */
                provider: "smtp" | "http";
            };
        };
        ExchangeRates: {
            /** @example USD */
            base: string;
            /**
             * Format: date
             * @description Publication day used
             * @example 2024-01-04
             */
            date: string;
            /**
             * @description Who published `base`'s own set: `ECB` when refreshed from RATES_API_URL, `ECB (snapshot)` for the rates shipped with the build, `ExchangeRate-API` for the wide source (RATES_WIDE_API_URL), `manual` for a rate an admin set. Each quote's own source is in `quotes`
             * @example ECB
             */
            source: string;
            /**
             * @description Whole days from the rate's date to today (UTC); quotations warn past 7
             * @example 1
             */
            age_days: number;
            /**
             * @description true: the shipped snapshot answers because no refresh has brought a newer day (offline, or RATES_API_URL=off)
             * @example false
             */
            snapshot: boolean;
            /**
             * @description One unit of `base` in each quote currency, decimal strings
             * @example {
             *       "CNY": "7.15155665115",
             *       "EUR": "0.912991874372"
             *     }
             */
            rates: {
                [key: string]: string;
            };
            /** @description Where each quote's rate came from: its source, date and age */
            quotes: {
                [key: string]: components["schemas"]["ExchangeRateProvenance"];
            };
        };
        ExchangeRateProvenance: {
            /** @example ExchangeRate-API */
            source: string;
            /**
             * Format: date
             * @example 2024-01-04
             */
            date: string;
            /**
             * @description Whole days from the rate's date to today (UTC); quotations warn past 7
             * @example 1
             */
            age_days: number;
        };
        Conversion: {
            /** @example 100 */
            amount: string;
            /** @example USD */
            from: string;
            /** @example CNY */
            to: string;
            /** @example 7.15155665115 */
            rate: string;
            /** @example 715.16 */
            result: string;
            /**
             * Format: date
             * @description Day of the rate used
             * @example 2024-01-04
             */
            date: string;
            /**
             * @description `ECB`, `ECB (snapshot)`, `ExchangeRate-API`, or `manual` when an admin's rate was used
             * @example ECB
             */
            source: string;
            /**
             * @description Whole days from the rate's date to today (UTC); quotations warn past 7
             * @example 1
             */
            age_days: number;
        };
        NotificationsPage: {
            items: components["schemas"]["Notification"][];
            total: number;
            page: number;
            size: number;
            /** @description The caller's unread notifications */
            unread: number;
        };
        Notification: {
            /** Format: uuid */
            id: string;
            /**
             * @description What it is about: reminder_digest (the reminders of a day, data: ReminderDigestData), trial_ended, subscription_ended, payment_succeeded, referral_rewarded, certification_approved, pool_recycle_warning and pool_recycled (the customer pool's overnight recycle), member_credit_limit (75% and 100% of a member's monthly limit), ...
             * @example reminder_digest
             */
            kind: string;
            title: string;
            body: string;
            /** @description Kind-specific details; ReminderDigestData for reminder_digest */
            data: components["schemas"]["ReminderDigestData"] | {
                [key: string]: unknown;
            } | null;
            is_read: boolean;
            /** Format: date-time */
            read_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        ReminderDigestData: {
            /** @description Customers silent past customers.silence_days */
            silent: number;
            /** @description Customers whose follow-up time has come */
            followups_due: number;
            /** @description The five most overdue of either kind, most overdue first */
            most_urgent: components["schemas"]["ReminderDigestCustomer"][];
            /** @description The run the counts are from (a later run the same day that finds them changed refreshes them) */
            as_of: string;
            /** @description The UTC day (YYYY-MM-DD) the digest stands for */
            day: string;
        };
        ReminderDigestCustomer: {
            customer_id: string;
            customer_name: string;
            /** @enum {string} */
            reason: "silent" | "followup_due";
            /** @description silent: the last contact (or creation); followup_due: when it was due */
            since: string;
            /** @description Whole days past customers.silence_days (silent) or past the follow-up */
            overdue_days: number;
        };
        MarkNotificationsResult: {
            /** @description Notifications whose state changed */
            updated: number;
            unread: number;
        };
        MarkNotifications: {
            ids: string[];
            is_read: boolean;
        };
        TranslateResult: {
            /** Format: uuid */
            id: string;
            translation: string;
            /** @description The given or detected source language */
            source_lang: string | null;
            target_lang: string;
            /** @description The provider that translated */
            provider: string;
            /**
             * @description mt (machine translation) or llm
             * @enum {string}
             */
            tier: "mt" | "llm";
            /** @description Present when with_replies was true */
            replies?: components["schemas"]["ReplySuggestion"][];
            /**
             * @description The replies could not be produced; the translation still was
             * @enum {string}
             */
            replies_error?: "unavailable";
            glossary: components["schemas"]["TranslationGlossaryReport"];
            credits_charged: number;
            /** @description The caller's balance after the charge */
            balance: number;
            /** Format: date-time */
            created_at: string;
        };
        ReplySuggestion: {
            /**
             * Format: uuid
             * @description Names the reply for POST /api/v1/ai/replies/{id}/accept (absent on replies stored before it existed)
             */
            id?: string;
            /** @description The reply in the buyer's language */
            text: string;
            /** @description The reply in the seller's language */
            translation: string;
            /** @description Every price, MOQ, lead time and spec the reply states, checked against the catalogue */
            claims?: components["schemas"]["Claim"][];
            /** @description A claim is still unverified after the replies were written again once: check it before sending */
            flagged?: boolean;
        };
        Claim: {
            /** @description The figure as the text states it */
            text: string;
            /** @enum {string} */
            kind: "price" | "spec" | "moq" | "lead_time";
            /** @description The catalogue's facts of the product it is about (or of any matched product) say the same */
            verified: boolean;
            /** @description The product the claim is about */
            product_id?: string;
        };
        /** @description The organisation's glossary terms of this text into target_lang: applied and missed */
        TranslationGlossaryReport: {
            /** @description Glossary terms found in the text whose target term is in the translation */
            applied: components["schemas"]["GlossaryTermReport"][];
            /** @description Glossary terms found in the text whose target term is not in the translation (an LLM's miss was repaired once first) */
            mismatches: components["schemas"]["GlossaryTermReport"][];
        };
        GlossaryTermReport: {
            source_term: string;
            target_term: string;
        };
        InsufficientCredits: components["schemas"]["Error"] & ({
            /** @description Credits the operation costs */
            required: number;
            /** @description Credits the caller can spend now: the balance, or less under a monthly limit */
            available: number;
            /** @description Credits the caller's organisation has */
            balance: number;
            /** @description member_limit_reached: the member's monthly credit limit */
            limit?: number;
            /** @description member_limit_reached: credits the member used this UTC month */
            used?: number;
        } & {
            [key: string]: unknown;
        });
        TranslationsPage: {
            items: components["schemas"]["Translation"][];
            total: number;
            page: number;
            size: number;
        };
        Translation: {
            /** Format: uuid */
            id: string;
            source_text: string;
            translation: string;
            source_lang: string | null;
            target_lang: string;
            replies: components["schemas"]["ReplySuggestion"][];
            provider: string;
            /** @enum {string} */
            tier: "mt" | "llm";
            chars: number;
            /** Format: date-time */
            created_at: string;
        };
        GlossaryImportResult: {
            dry_run: boolean;
            rows: number;
            valid: number;
            invalid: number;
            /** @description Valid rows repeating an earlier row's pair and source term (the last wins) */
            duplicates: number;
            created: number;
            /** @description Existing terms whose target (and note) the file replaced */
            updated: number;
            ignored_columns: string[];
            errors: {
                row: number;
                column: string;
                message: string;
            }[];
            errors_truncated: boolean;
        };
        GlossaryPage: {
            items: components["schemas"]["GlossaryTerm"][];
            total: number;
            page: number;
            size: number;
        };
        GlossaryTerm: {
            /** Format: uuid */
            id: string;
            source_lang: string;
            target_lang: string;
            source_term: string;
            target_term: string;
            note: string | null;
            /** @description The user who added the term */
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        GlossaryTermRequest: {
            /**
             * @description The language the term is written in
             * @example en
             */
            source_lang: string;
            /**
             * @description The language it is translated into
             * @example es
             */
            target_lang: string;
            /** @example PowerLite X2 */
            source_term: string;
            /** @example PowerLite X2 */
            target_term: string;
            /** @description Why or where the term is used (not translated) */
            note?: string;
        };
        GlossaryTermPatch: {
            /** @example en */
            source_lang?: string;
            /** @example es */
            target_lang?: string;
            /** @example PowerLite X2 */
            source_term?: string;
            /** @example PowerLite X2 */
            target_term?: string;
            /** @description Why or where the term is used (not translated) */
            note?: string;
        };
        ChatResult: {
            conversation_id: string;
            message: components["schemas"]["AssistantMessage"];
            action: components["schemas"]["AssistantAction"] & unknown;
            /** @description 0 for an FAQ answer */
            credits_charged: number;
            balance: number;
        };
        AssistantMessage: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            role: "user" | "assistant";
            content: string;
            /**
             * @description Assistant messages: faq (instant, free) or llm; null for user messages
             * @enum {string|null}
             */
            source: "faq" | "llm" | null;
            action: components["schemas"]["AssistantAction"];
            /** Format: date-time */
            created_at: string;
        };
        ChatInput: {
            /** @example Add customer Acme GmbH, contact Anna Weber, anna@acme.de, Germany */
            message: string;
            /**
             * Format: uuid
             * @description Continue this conversation of the caller; omit to start a new one
             */
            conversation_id?: string;
            /** @description true: answer as text/event-stream, the same as `?stream=true` (either one streams) */
            stream?: boolean;
            /**
             * Format: uuid
             * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
             */
            quote_id?: string;
        };
        ActionConfirmResult: {
            action_id: string;
            /** @enum {string} */
            type: "add_customer" | "log_followup" | "create_quotation";
            /** Format: date-time */
            performed_at: string;
            /** @description The customer, follow-up or quotation the action made */
            result_id: string;
            /** @description What the owning route answers: a Customer, a FollowupResult or a Quotation */
            result: {
                [key: string]: unknown;
            };
            /** @description true: the action had already been performed; this is that first outcome and nothing was done now (the edits of this call are ignored) */
            replayed: boolean;
        };
        ActionConfirmInput: {
            /** @description Fields over the proposal's data; the result must pass the owning route's body schema (422 naming `body.<field>` otherwise, nothing done) */
            edits?: {
                [key: string]: unknown;
            };
        };
        QuickQuestions: {
            questions: string[];
        };
        ConversationPage: {
            items: components["schemas"]["ConversationSummary"][];
            total: number;
            page: number;
            size: number;
        };
        ConversationSummary: {
            /** Format: uuid */
            id: string;
            title: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            message_count: number;
            last_message: {
                /** @enum {string} */
                role: "user" | "assistant";
                /** @description The first 200 characters */
                preview: string;
                /** Format: date-time */
                created_at: string;
            } | null;
        };
        Conversation: {
            /** Format: uuid */
            id: string;
            title: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            message_count: number;
            /** @description The last 100 messages, oldest first */
            messages: components["schemas"]["AssistantMessage"][];
        };
        OrgFaqPage: {
            items: components["schemas"]["OrgFaq"][];
            total: number;
            page: number;
            size: number;
        };
        OrgFaq: {
            /** Format: uuid */
            id: string;
            question: string;
            answer: string;
            /** @description und when not known (an accepted reply) */
            language: string;
            /**
             * @description candidate: an accepted reply waiting for an admin; active: answers questions
             * @enum {string}
             */
            status: "candidate" | "active";
            /** @description Questions the assistant answered with it */
            hit_count: number;
            /** Format: date-time */
            last_hit_at: string | null;
            /** @description The accepted reply suggestion it came from (POST /ai/replies/{id}/accept) */
            source_reply_id: string | null;
            created_by: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        OrgFaqPatch: {
            question?: string;
            answer?: string;
            /** @example en */
            language?: string;
            /**
             * @description active approves it
             * @enum {string}
             */
            status?: "candidate" | "active";
        };
        AcceptedReply: {
            faq: components["schemas"]["OrgFaq"];
            /** @description false: this reply had already been accepted; that candidate is returned */
            created: boolean;
        };
        MarketingGenerated: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "product_description" | "email" | "social_post" | "whatsapp_message" | "ad_copy";
            product_id: string | null;
            audience: string | null;
            language: string;
            /** @enum {string|null} */
            tone: "professional" | "friendly" | "persuasive" | "concise" | null;
            content: string;
            /** @description The AI provider that wrote it */
            provider: string;
            /** Format: date-time */
            created_at: string;
            credits_charged: number;
            /** @description Credits left after the charge */
            balance: number;
        };
        /**
         * @example {
         *       "kind": "email",
         *       "product_id": "0b3f6a8e-2c1d-4b5e-9f00-1a2b3c4d5e6f",
         *       "audience": "Hardware importers in Germany",
         *       "language": "de",
         *       "tone": "professional"
         *     }
         */
        MarketingGenerateInput: {
            /** @enum {string} */
            kind: "product_description" | "email" | "social_post" | "whatsapp_message" | "ad_copy";
            /**
             * Format: uuid
             * @description A product of the organisation's catalogue; its facts go into the prompt
             */
            product_id?: string | null;
            /** @example Hardware importers in Germany */
            audience?: string | null;
            /** @example en */
            language: string;
            /** @enum {string|null} */
            tone?: "professional" | "friendly" | "persuasive" | "concise" | null;
            /**
             * Format: uuid
             * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
             */
            quote_id?: string;
        };
        MarketingContentsPage: {
            items: components["schemas"]["MarketingContent"][];
            total: number;
            page: number;
            size: number;
        };
        MarketingContent: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            kind: "product_description" | "email" | "social_post" | "whatsapp_message" | "ad_copy";
            product_id: string | null;
            audience: string | null;
            language: string;
            /** @enum {string|null} */
            tone: "professional" | "friendly" | "persuasive" | "concise" | null;
            content: string;
            /** @description The AI provider that wrote it */
            provider: string;
            /** Format: date-time */
            created_at: string;
        };
        MarketingEvent: {
            /** Format: uuid */
            id: string;
            event_type: string;
            content: string | null;
            /** Format: date-time */
            created_at: string;
        };
        MarketingEventInput: {
            /** @example share */
            event_type: string;
            /**
             * @description What the event is about: a generated content's id, a URL...
             * @example https://example.com/listing/123
             */
            content: string;
        };
        MarketingStats: {
            /** @example 2024-05-01 */
            from: string;
            /** @example 2024-05-30 */
            to: string;
            total: number;
            by_type: {
                event_type: string;
                count: number;
            }[];
        };
        FollowupDraft: {
            customer_id: string;
            /** @enum {string} */
            channel: "email" | "whatsapp" | "wechat";
            language: string;
            /** @description E-mail drafts only */
            subject?: string;
            body: string;
            /** @description Every price, MOQ, lead time and spec value the draft states, checked against the catalogue */
            claims: components["schemas"]["Claim"][];
            /** @description A claim is still unverified after the draft was written again once: check it before sending */
            flagged: boolean;
            provider: string;
            credits_charged: number;
            balance: number;
        };
        FollowupDraftInput: {
            /**
             * @description Default en
             * @example en
             */
            language?: string;
            /**
             * @description Default email
             * @enum {string}
             */
            channel?: "email" | "whatsapp" | "wechat";
            /** @example Ask whether the samples arrived and propose a call next week */
            goal?: string;
            /**
             * Format: uuid
             * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
             */
            quote_id?: string;
        };
        QuotationFromInquiry: components["schemas"]["Quotation"] & {
            extraction: components["schemas"]["InquiryExtraction"];
            extracted: components["schemas"]["InquiryExtracted"];
            /** @description What the buyer left out: items[i].quantity, incoterm, destination */
            missing_fields: string[];
            /** @description A message to the buyer in the inquiry's language asking for the missing fields */
            questions: string | null;
            /** @enum {string} */
            next_move: "draft" | "ask" | "out_of_scope";
            credits_charged: number;
            balance: number;
        };
        InquiryExtraction: {
            items: {
                name: string;
                quantity: number;
                matched_product_id: string | null;
                /** @description 1 for an exact SKU match, else pg_trgm similarity of the names */
                similarity: number | null;
            }[];
            notes: string | null;
        };
        InquiryExtracted: {
            items: {
                name: string;
                sku: string | null;
                /** @description null: not stated */
                quantity: number | null;
                /** @description Normalised: pcs, sets, kg, ... */
                unit: string | null;
                /** @enum {string} */
                match: "exact" | "alias" | "fuzzy" | "none";
                confidence: number;
                product_id: string | null;
                product_name: string | null;
                /** @description The line is at 0: price it before the quotation can be sent */
                unpriced: boolean;
            }[];
            currency: string | null;
            /** @description Incoterms 2020 code */
            incoterm: string | null;
            incoterm_raw: string | null;
            port_of_loading: components["schemas"]["InquiryPort"];
            port_of_destination: components["schemas"]["InquiryPort"];
            /** @description ISO 3166-1 alpha-2 */
            destination_country: string | null;
            certifications: string[];
            /** @description ISO date, when stated */
            deadline: string | null;
            payment_terms: string | null;
            language: string;
            /** @description What normalising changed, e.g. DDU read as DAP */
            notes: string[];
        };
        InquiryPort: {
            /** @description As the buyer wrote it */
            raw: string;
            /** @description UN/LOCODE; null: not in the table */
            locode: string | null;
            name: string;
            /** @description ISO 3166-1 alpha-2 */
            country: string | null;
        } | null;
        QuotationFromInquiryInput: {
            /** @example Hello, we need 500 pcs LED panel light 600x600 40W and 200 pcs of SKU DL-12, CIF Hamburg. Target price 8 USD per panel. */
            inquiry_text: string;
            /** Format: uuid */
            customer_id?: string | null;
            /**
             * @description The quotation's currency; default: the one the inquiry names, else the first matched product's, else USD
             * @example USD
             */
            currency?: string;
            /**
             * Format: uuid
             * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
             */
            quote_id?: string;
        };
        DiscoverySearchResult: {
            product: string;
            market: string;
            /**
             * @description The 3 web-search queries that were run
             * @example [
             *       "LED panel lights 600x600 importers Germany",
             *       "LED panel lights 600x600 distributors wholesalers Germany",
             *       "LED panel lights 600x600 buyers companies Germany"
             *     ]
             */
            queries: string[];
            /** @description Best fit first */
            companies: components["schemas"]["DiscoveredCompany"][];
            /**
             * @description The search providers that answered
             * @example [
             *       "brave"
             *     ]
             */
            search_providers: string[];
            /**
             * @description The LLM provider that analysed the results (empty when nothing was found)
             * @example openai
             */
            analysis_provider: string;
            credits_charged: number;
            /** @description Credits left after the charge */
            balance: number;
        };
        DiscoveredCompany: {
            /** @example Acme Lighting GmbH */
            name: string;
            /** @example https://acme-lighting.example/ */
            website: string | null;
            /** @example Germany */
            country: string | null;
            /**
             * @description Why the company may buy the product (LLM analysis of the search results)
             * @example Importer and wholesaler of commercial LED lighting for offices
             */
            summary: string;
            /** @example 82 */
            fit_score: number;
            /** @description Only as found in the search results */
            contact: {
                /** Format: email */
                email: string | null;
                phone: string | null;
            };
            /**
             * @description What the company is to the seller, from the analysis given the seller's own catalogue: `buyer`, `distributor` (importer, wholesaler), `manufacturer` (may use the product), `competitor` (only when the analysis says so), `unknown` (not stated)
             * @example distributor
             * @enum {string}
             */
            role: "buyer" | "distributor" | "manufacturer" | "competitor" | "unknown";
            /**
             * @description Why that role, in a sentence from the search results
             * @example Imports and wholesales commercial LED lighting
             */
            role_reason: string;
            /**
             * @description The search result each field came from; URLs the analysis cited that were not among the results are dropped
             * @example [
             *       {
             *         "field": "name",
             *         "url": "https://acme-lighting.example/about"
             *       }
             *     ]
             */
            sources: components["schemas"]["DiscoveredCompanySource"][];
            /**
             * Format: uuid
             * @description A customer of the caller's (one they see) that is this company: same website or email domain, or the same name once punctuation and legal suffixes (Ltd, GmbH, S.A., 有限公司) are dropped
             */
            existing_customer_id: string | null;
        };
        DiscoveredCompanySource: {
            /**
             * @description The field the result supports
             * @enum {string}
             */
            field: "name" | "website" | "country" | "summary" | "email" | "phone" | "role";
            /** @description A search result URL (data only, never fetched) */
            url: string;
        };
        DiscoverySearchInput: {
            /** @example LED panel lights 600x600 */
            product: string;
            /** @example Germany */
            market: string;
            /**
             * @description Companies to return at most (default 10, up to 50)
             * @example 10
             */
            max_companies?: number;
            /**
             * Format: uuid
             * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
             */
            quote_id?: string;
        };
        DiscoveryJobStarted: {
            /** Format: uuid */
            id: string;
            /**
             * @example queued
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed";
            /** @description Charged when the job is queued; a job that finds no company refunds it */
            credits_charged: number;
            /** @description Credits after the charge */
            balance: number;
        };
        DiscoveryJob: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed";
            product: string;
            market: string;
            max_companies: number | null;
            progress: components["schemas"]["DiscoveryJobProgress"];
            /** @description Once succeeded: the same answer POST /discovery/search gives */
            result: components["schemas"]["DiscoverySearchResult"] | null;
            /**
             * Format: uuid
             * @description The discovery record the result was saved as (GET /discovery/records/{id})
             */
            record_id: string | null;
            /** @description Why the job failed (user-safe) */
            error: string | null;
            attempts: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** @description The organisation it belongs to */
            org_id: string;
            /** @description The member who ran it */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
        };
        DiscoveryJobProgress: {
            /** @description The 3 web-search queries, in order, as they run */
            queries: {
                query: string;
                /** @enum {string} */
                status: "pending" | "running" | "succeeded" | "failed";
                /** @description The provider that answered */
                provider: string | null;
                /** @description Results it returned */
                results: number | null;
            }[];
            analysis: {
                /**
                 * @description `skipped` when the queries found nothing to analyse
                 * @enum {string}
                 */
                status: "pending" | "running" | "succeeded" | "failed" | "skipped";
                provider: string | null;
                companies: number | null;
            };
        };
        DiscoveryRecord: {
            /** Format: uuid */
            id: string;
            product: string;
            market: string;
            companies: components["schemas"]["DiscoveredCompany"][];
            /** Format: date-time */
            created_at: string;
            /** @description The organisation it belongs to */
            org_id: string;
            /** @description The member who ran it */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
        };
        DiscoveredCompanyInput: {
            /** @example Acme Lighting GmbH */
            name: string;
            /** @example https://acme-lighting.example/ */
            website: string | null;
            /** @example Germany */
            country: string | null;
            /**
             * @description Why the company may buy the product (LLM analysis of the search results)
             * @example Importer and wholesaler of commercial LED lighting for offices
             */
            summary: string;
            /** @example 82 */
            fit_score: number;
            /** @description Only as found in the search results */
            contact: {
                /** Format: email */
                email: string | null;
                phone: string | null;
            };
            /**
             * @description What the company is to the seller, from the analysis given the seller's own catalogue: `buyer`, `distributor` (importer, wholesaler), `manufacturer` (may use the product), `competitor` (only when the analysis says so), `unknown` (not stated)
             * @default unknown
             * @example distributor
             * @enum {string}
             */
            role: "buyer" | "distributor" | "manufacturer" | "competitor" | "unknown";
            /**
             * @description Why that role, in a sentence from the search results
             * @default
             * @example Imports and wholesales commercial LED lighting
             */
            role_reason: string;
            sources: (components["schemas"]["DiscoveredCompanySource"] | string)[];
            /**
             * Format: uuid
             * @description A customer of the caller's (one they see) that is this company: same website or email domain, or the same name once punctuation and legal suffixes (Ltd, GmbH, S.A., 有限公司) are dropped
             */
            existing_customer_id?: string | null;
        };
        DiscoveryRecordPage: {
            items: components["schemas"]["DiscoveryRecordListItem"][];
            total: number;
            page: number;
            size: number;
        };
        DiscoveryRecordListItem: {
            /** Format: uuid */
            id: string;
            product: string;
            market: string;
            companies: components["schemas"]["DiscoveredCompany"][];
            company_count: number;
            /** Format: date-time */
            created_at: string;
            /** @description The organisation it belongs to */
            org_id: string;
            /** @description The member who ran it */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
        };
        AgentStarted: {
            /** Format: uuid */
            id: string;
            /**
             * @example queued
             * @enum {string}
             */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | "budget_exhausted";
            /** @description Credits the run costs now: charged at the start, less what was refunded (unused stages, a run with no lead, a failure) */
            credits_charged: number;
            /** @description The run's budget (max_credits); null: none */
            max_credits: number | null;
        };
        AgentPipelinesPage: {
            items: components["schemas"]["AgentPipelineListItem"][];
            total: number;
            page: number;
            size: number;
        };
        AgentPipelineListItem: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | "budget_exhausted";
            product: string;
            market: string;
            max_leads: number;
            /** @description Why the run failed (user-safe) */
            error: string | null;
            attempts: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** @description Credits the run costs now: charged at the start, less what was refunded (unused stages, a run with no lead, a failure) */
            credits_charged: number;
            /** @description The run's budget (max_credits); null: none */
            max_credits: number | null;
            /** @description The organisation it belongs to */
            org_id: string;
            /** @description The member who ran it */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
            /**
             * @example {
             *       "leads": 8,
             *       "drafted": 7,
             *       "saved": 6,
             *       "duplicates": 2
             *     }
             */
            summary: {
                leads: number;
                drafted: number;
                saved: number;
                duplicates: number;
                /** @description New leads not saved: the plan's customers limit was reached */
                not_saved?: number;
                /** @description Why leads were not saved, or why the run stopped early (budget, no lead) */
                note?: string;
                /**
                 * @description budget_exhausted: the stage the budget did not cover
                 * @enum {string}
                 */
                stopped_before?: "search" | "outreach" | "save";
            } | null;
        };
        AgentPipeline: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "queued" | "running" | "succeeded" | "failed" | "cancelled" | "budget_exhausted";
            product: string;
            market: string;
            max_leads: number;
            /** @description Why the run failed (user-safe) */
            error: string | null;
            attempts: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** @description Credits the run costs now: charged at the start, less what was refunded (unused stages, a run with no lead, a failure) */
            credits_charged: number;
            /** @description The run's budget (max_credits); null: none */
            max_credits: number | null;
            /** @description The organisation it belongs to */
            org_id: string;
            /** @description The member who ran it */
            user_id: string;
            /** @description That member's name */
            owner_name: string | null;
            pipeline_data: {
                stages: {
                    /** @enum {string} */
                    name: "search" | "analysis" | "outreach" | "save";
                    /** @enum {string} */
                    status: "running" | "succeeded" | "failed";
                    /** Format: date-time */
                    started_at: string;
                    /** Format: date-time */
                    finished_at: string | null;
                    detail: {
                        [key: string]: unknown;
                    } | null;
                }[];
                leads: {
                    name: string;
                    website: string | null;
                    country: string | null;
                    summary: string;
                    fit_score: number;
                    contact: {
                        /** Format: email */
                        email: string | null;
                        phone: string | null;
                    };
                    /** @enum {string} */
                    role?: "buyer" | "distributor" | "manufacturer" | "competitor" | "unknown";
                    role_reason?: string;
                    sources: (string | {
                        field: string;
                        url: string;
                    })[];
                    /** Format: uuid */
                    existing_customer_id?: string | null;
                    outreach: {
                        subject: string;
                        body: string;
                        language: string;
                        provider: string;
                        /** @description Every price, MOQ, lead time and spec value the draft states, checked against the catalogue */
                        claims?: components["schemas"]["Claim"][];
                        /** @description A claim is still unverified after the draft was written again once: check it before sending */
                        flagged?: boolean;
                    } | null;
                    /** @description Why a lead has no outreach draft */
                    note?: string;
                    /** Format: uuid */
                    customer_id?: string | null;
                    /** Format: uuid */
                    duplicate_of?: string | null;
                    /** @description Why this new lead was not saved as a customer (plan limit) */
                    not_saved?: string | null;
                }[];
                /**
                 * @example {
                 *       "leads": 8,
                 *       "drafted": 7,
                 *       "saved": 6,
                 *       "duplicates": 2
                 *     }
                 */
                summary: {
                    leads: number;
                    drafted: number;
                    saved: number;
                    duplicates: number;
                    /** @description New leads not saved: the plan's customers limit was reached */
                    not_saved?: number;
                    /** @description Why leads were not saved, or why the run stopped early (budget, no lead) */
                    note?: string;
                    /**
                     * @description budget_exhausted: the stage the budget did not cover
                     * @enum {string}
                     */
                    stopped_before?: "search" | "outreach" | "save";
                } | null;
            };
        };
        AgentCancelled: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "cancelled";
            /**
             * @description The share of the run's charge for the stages not started (docs/agent.md)
             * @example 7
             */
            credits_refunded: number;
            /** @description Credits after the refund */
            balance: number | null;
        };
        AiUsagePage: {
            items: components["schemas"]["AiCall"][];
            total: number;
            page: number;
            size: number;
        };
        AiCall: {
            /** Format: uuid */
            id: string;
            task: string;
            provider: string;
            model: string;
            /** @description As the provider reported them; null when it did not */
            tokens_in: number | null;
            tokens_out: number | null;
            latency_ms: number;
            /**
             * @description `ok` answered, `error` failed, `timeout` ran out of time, `unusable` answered what the feature could not use, `cancelled` a stream its client left
             * @enum {string}
             */
            outcome: "ok" | "error" | "timeout" | "unusable" | "cancelled";
            /** @description What the billed operation cost, on the call that answered it (0 on the others, and once the charge was refunded) */
            credits: number;
            /** Format: uuid */
            user_id: string | null;
            /** Format: date-time */
            created_at: string;
        };
        AdminStats: {
            /** Format: date */
            start_date: string;
            /** Format: date */
            end_date: string;
            totals: {
                users: number;
                guests: number;
                paid_plan_users: number;
                new_users: number;
                /**
                 * @example {
                 *       "USD": 129900
                 *     }
                 */
                revenue: {
                    [key: string]: number;
                };
                credits_granted: number;
                credits_consumed: number;
                credits_expired: number;
                credits_outstanding: number;
                ai_calls: number;
                ai_calls_by_operation: {
                    [key: string]: number;
                };
            };
            by_day: {
                /** Format: date */
                date: string;
                new_users: number;
                /**
                 * @example {
                 *       "USD": 129900
                 *     }
                 */
                revenue: {
                    [key: string]: number;
                };
                credits_granted: number;
                credits_consumed: number;
                ai_calls: number;
            }[];
            /** @description Every provider attempt of the range (ai_calls) per provider, busiest first: a failure is an error, a timeout or an unusable answer */
            ai_providers: {
                provider: string;
                calls: number;
                failures: number;
                /** @description failures / calls, 0 to 1 */
                failure_rate: number;
                tokens_in: number;
                tokens_out: number;
                /** @description Credits of the operations its calls answered (cost) */
                credits: number;
                avg_latency_ms: number;
            }[];
        };
        AdminUserPage: {
            items: components["schemas"]["AdminUser"][];
            total: number;
            page: number;
            size: number;
        };
        AdminUser: components["schemas"]["User"] & {
            /** Format: date-time */
            last_login_at: string | null;
            referred_by: string | null;
            /**
             * Format: uuid
             * @description The organisation the account belongs to
             */
            org_id: string | null;
            org_name: string | null;
            /**
             * @description The account's role there
             * @enum {string|null}
             */
            org_role: "owner" | "admin" | "manager" | "member" | null;
        };
        AdminUserPatch: {
            /** @enum {string} */
            role?: "user" | "admin";
            /** @enum {string} */
            status?: "active" | "disabled";
            plan?: string;
            /** Format: date-time */
            plan_expires_at?: string | null;
        };
        AdminOrgPage: {
            items: components["schemas"]["AdminOrg"][];
            total: number;
            page: number;
            size: number;
        };
        AdminOrg: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description The plan in effect (a lapsed paid plan is `free`) */
            plan: string;
            /** Format: date-time */
            plan_expires_at: string | null;
            /** Format: date-time */
            trial_ends_at: string | null;
            /** @description The plan's `limits.seats`; null: unlimited */
            seats: number | null;
            member_count: number;
            /** Format: uuid */
            owner_id: string | null;
            /** Format: email */
            owner_email: string | null;
            /** @description Credits the organisation's wallet holds */
            balance: number;
            /** Format: date-time */
            created_at: string;
        };
        UsageLogPage: {
            items: components["schemas"]["UsageLog"][];
            total: number;
            page: number;
            size: number;
        };
        UsageLog: {
            /** Format: uuid */
            id: string;
            user_id: string | null;
            /** Format: email */
            email: string | null;
            event: string;
            ip: string | null;
            metadata: {
                [key: string]: unknown;
            } | null;
            /** Format: date-time */
            created_at: string;
        };
        AdminAuditLogPage: {
            items: components["schemas"]["AdminAuditLogEntry"][];
            total: number;
            page: number;
            size: number;
        };
        AdminAuditLogEntry: {
            /** Format: uuid */
            id: string;
            /** @description Null for an operator's command-line change */
            actor_id: string | null;
            /** Format: email */
            actor_email: string | null;
            /** @example credit_plan.update */
            action: string;
            /** @example credit_plan */
            target_type: string;
            target_id: string | null;
            /**
             * @description The fields the write changed, each with its value before and after; a write-only secret shows as "set", "unset" or "replaced", never its value
             * @example {
             *       "features": {
             *         "before": [
             *           "crm"
             *         ],
             *         "after": [
             *           "crm",
             *           "agent"
             *         ]
             *       }
             *     }
             */
            changes: {
                [key: string]: {
                    before?: unknown;
                    after?: unknown;
                };
            };
            /** @description Our id of the request that made the write (its response's X-Request-Id, the access log's request_id); `cli` or `startup` for a change made outside a request */
            request_id: string | null;
            /** @description The X-Request-Id the caller sent, when it was well formed (at most 128 letters, digits and `_ - . : =`); the caller's claim, kept for correlation only */
            client_request_id: string | null;
            ip: string | null;
            /** Format: date-time */
            created_at: string;
        };
        SystemConfigEntry: {
            key: string;
            value?: unknown;
            /** Format: date-time */
            updated_at: string;
        };
        SystemConfigPut: {
            value?: unknown;
        };
        CreditUsersPage: {
            items: components["schemas"]["CreditUser"][];
            total: number;
            page: number;
            size: number;
        };
        /** @description An organisation's wallet (ADR 0098) */
        CreditUser: {
            /** @description The organisation whose wallet this is */
            org_id: string;
            org_name: string;
            /** @description The owner: adjusting by this id adjusts this wallet */
            user_id: string | null;
            /**
             * Format: email
             * @description The owner's
             */
            email: string | null;
            /** @description The owner's */
            name: string | null;
            plan: string;
            balance: number;
            /** Format: date-time */
            updated_at: string;
        };
        CreditConsumptionsPage: {
            items: components["schemas"]["CreditConsumption"][];
            total: number;
            page: number;
            size: number;
        };
        CreditConsumption: {
            /** Format: uuid */
            id: string;
            /** @description The organisation charged */
            org_id: string;
            /** @description The member charged */
            user_id: string;
            /** Format: email */
            email: string | null;
            operation: string;
            cost: number;
            /** @enum {string} */
            status: "charged" | "refunded";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            refunded_at: string | null;
        };
        CreditAdjustmentResult: {
            user_id: string;
            balance: number;
            ledger_id: string | null;
        };
        CreditAdjustment: {
            delta: number;
            reason: string;
        };
        AdminCreditPackage: components["schemas"]["CreditPackage"] & {
            active: boolean;
            sort_order: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreditPackage: {
            /** Format: uuid */
            id: string;
            name: string;
            credits: number;
            /** @description Minor units */
            price: number;
            currency: string;
        };
        CreditPackagePatch: {
            name?: string;
            credits?: number;
            price?: number;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            currency?: string;
            active?: boolean;
            sort_order?: number;
        };
        AdminSubscriptionPlan: components["schemas"]["SubscriptionPlan"] & {
            limits: {
                [key: string]: number;
            };
            active: boolean;
            sort_order: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SubscriptionPlan: {
            /** Format: uuid */
            id: string;
            code: string;
            name: string;
            currency: string;
            monthly_price: number;
            yearly_price: number;
            monthly_credits: number;
            features: string[];
            tier: number;
        };
        SubscriptionPlanPatch: {
            name?: string;
            /**
             * @description ISO 4217 code in upper case
             * @example USD
             */
            currency?: string;
            monthly_price?: number;
            monthly_credits?: number;
            features?: string[];
            tier?: number;
            active?: boolean;
            sort_order?: number;
            /** @description Quotas of the plan; null or missing: unlimited */
            limits?: {
                customers?: number | null;
                agent_runs_per_month?: number | null;
                seats?: number | null;
            };
        };
        AdminPaymentsPage: {
            items: components["schemas"]["AdminPayment"][];
            total: number;
            page: number;
            size: number;
        };
        AdminPayment: {
            order_no: string;
            /** @enum {string} */
            kind: "credits" | "subscription";
            /** @enum {string} */
            status: "pending" | "paid" | "expired" | "cancelled" | "refunded" | "partially_refunded";
            /** @enum {string} */
            pay_type: "alipay" | "wxpay" | "card";
            amount: number;
            currency: string;
            subject: string;
            credits: number | null;
            plan: string | null;
            /** @enum {string|null} */
            billing_cycle: "monthly" | "yearly" | null;
            pay_url: string | null;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            paid_at: string | null;
            paid_late: boolean;
            refunded_amount: number;
            /** Format: date-time */
            created_at: string;
            user_id: string;
            /** Format: email */
            email: string | null;
            /** @enum {string} */
            provider: "gateway" | "sandbox" | "stripe";
            provider_trade_no: string | null;
        };
        PaymentStats: {
            /** Format: date */
            start_date: string;
            /** Format: date */
            end_date: string;
            totals: {
                orders: number;
                paid_orders: number;
                gross: {
                    [key: string]: number;
                };
                refunded: {
                    [key: string]: number;
                };
                revenue: {
                    [key: string]: number;
                };
            };
            by_status: {
                pending?: number;
                paid?: number;
                expired?: number;
                cancelled?: number;
                refunded?: number;
                partially_refunded?: number;
            };
            revenue: {
                /** Format: date */
                date: string;
                /** @enum {string} */
                pay_type: "alipay" | "wxpay" | "card";
                currency: string;
                orders: number;
                gross: number;
                refunded: number;
                revenue: number;
            }[];
        };
        RefundResult: {
            refund_no: string;
            order_no: string;
            amount: number;
            /** @enum {string} */
            status: "succeeded" | "pending";
            credits_reversed: number;
            /** @enum {string} */
            order_status: "pending" | "paid" | "expired" | "cancelled" | "refunded" | "partially_refunded";
            refunded_amount: number;
        };
        CertificationsPage: {
            items: components["schemas"]["AdminCertification"][];
            total: number;
            page: number;
            size: number;
        };
        AdminCertification: components["schemas"]["Certification"] & {
            user_id: string;
            /** Format: email */
            email: string | null;
            reviewed_by: string | null;
        };
        Certification: {
            /** Format: uuid */
            id: string;
            company_name: string;
            license_no: string;
            contact_name: string;
            contact_phone: string;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected";
            reject_reason: string | null;
            /** Format: date-time */
            reviewed_at: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CertificationRejection: {
            reason: string;
        };
        AdminInvoicesPage: {
            items: components["schemas"]["AdminInvoice"][];
            total: number;
            page: number;
            size: number;
        };
        AdminInvoice: components["schemas"]["Invoice"] & {
            user_id: string;
            /** Format: email */
            user_email: string | null;
        };
        Invoice: {
            /** Format: uuid */
            id: string;
            order_no: string;
            title: string;
            tax_number: string;
            /** Format: email */
            email: string;
            /** @description Minor units: paid amount less refunds */
            amount: number;
            currency: string;
            /** @enum {string} */
            status: "requested" | "issued";
            invoice_number: string | null;
            /** Format: date-time */
            issued_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        InvoiceIssue: {
            invoice_number: string;
        };
        AiProviderPage: {
            items: components["schemas"]["AiProvider"][];
            total: number;
            page: number;
            size: number;
        };
        AiProvider: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            kind: "llm" | "mt";
            base_url: string;
            api_key_set: boolean;
            /** @description Last 4 characters of the key */
            api_key_hint: string | null;
            models: string[];
            enabled: boolean;
            timeout_ms: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        AiProviderPatch: {
            /** @example openai */
            name?: string;
            /** @example https://api.openai.com/v1 */
            base_url?: string;
            /**
             * @description Write-only: stored encrypted, never returned (responses show api_key_hint)
             * @example sk-live-0123456789abcdef
             */
            api_key?: string | null;
            /**
             * @description Model ids (llm: 1 to 50, the first is the default; mt: may be empty)
             * @example [
             *       "gpt-4o-mini",
             *       "gpt-4o"
             *     ]
             */
            models?: string[];
            enabled?: boolean;
            /** @example 30000 */
            timeout_ms?: number;
        };
        AiRouting: {
            /**
             * @description The stored `ai.routing`, every known task listed
             * @example {
             *       "translate": [
             *         "openai"
             *       ],
             *       "chat": [
             *         "openai:gpt-4o-mini",
             *         "deepseek"
             *       ],
             *       "marketing": [],
             *       "discovery_analysis": [],
             *       "followup_draft": [],
             *       "quotation_from_inquiry": []
             *     }
             */
            routing: {
                translate: string[];
                chat: string[];
                marketing: string[];
                discovery_analysis: string[];
                followup_draft: string[];
                quotation_from_inquiry: string[];
            };
            /** @description Per task, what will actually run, in order: routed entries naming enabled llm providers (a bare name uses the provider's first model), or, for an empty list, every enabled llm provider */
            effective: {
                translate: {
                    provider: string;
                    model: string;
                }[];
                chat: {
                    provider: string;
                    model: string;
                }[];
                marketing: {
                    provider: string;
                    model: string;
                }[];
                discovery_analysis: {
                    provider: string;
                    model: string;
                }[];
                followup_draft: {
                    provider: string;
                    model: string;
                }[];
                quotation_from_inquiry: {
                    provider: string;
                    model: string;
                }[];
            };
            /** Format: date-time */
            updated_at: string | null;
        };
        /**
         * @description Task (translate, chat, marketing, discovery_analysis, followup_draft, quotation_from_inquiry) -> up to 10 distinct entries naming llm providers
         * @example {
         *       "chat": [
         *         "openai:gpt-4o-mini",
         *         "deepseek"
         *       ],
         *       "translate": [
         *         "openai"
         *       ]
         *     }
         */
        AiRoutingInput: {
            [key: string]: string[];
        };
        TranslationQuotaPage: {
            items: components["schemas"]["TranslationQuota"][];
            total: number;
            page: number;
            size: number;
        };
        TranslationQuota: {
            /** Format: uuid */
            id: string;
            provider_id: string;
            provider_name: string;
            /**
             * @description The provider's kind
             * @enum {string}
             */
            tier: "llm" | "mt";
            /** @enum {string} */
            period: "day" | "month";
            char_limit: number;
            /** @description Used in the current period (0 once the stored period has ended) */
            chars_used: number;
            remaining: number;
            /**
             * Format: date-time
             * @example 2026-11-24T08:30:00.000Z
             */
            period_start: string;
            /** Format: date-time */
            resets_at: string;
            enabled: boolean;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        TranslationQuotaPatch: {
            /** @enum {string} */
            period?: "day" | "month";
            char_limit?: number;
            enabled?: boolean;
        };
        FaqPage: {
            items: components["schemas"]["Faq"][];
            total: number;
            page: number;
            size: number;
        };
        Faq: {
            /** Format: uuid */
            id: string;
            question: string;
            answer: string;
            keywords: string[];
            enabled: boolean;
            sort_order: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        FaqPatch: {
            /** @example What is your MOQ? */
            question?: string;
            /** @example Our MOQ is 500 pieces. */
            answer?: string;
            /**
             * @example [
             *       "moq",
             *       "minimum order"
             *     ]
             */
            keywords?: string[];
            enabled?: boolean;
            sort_order?: number;
        };
        AdminAiCallPage: {
            items: components["schemas"]["AdminAiCall"][];
            total: number;
            page: number;
            size: number;
        };
        AdminAiCall: components["schemas"]["AiCall"] & {
            /** Format: uuid */
            org_id: string | null;
            /**
             * Format: uuid
             * @description The billed operation's consumption (credit ledger)
             */
            consumption_id: string | null;
        };
        SearchProviderPage: {
            items: components["schemas"]["SearchProvider"][];
            total: number;
            page: number;
            size: number;
        };
        SearchProvider: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            kind: "brave" | "searxng";
            base_url: string;
            api_key_set: boolean;
            /** @description Last 4 characters of the key */
            api_key_hint: string | null;
            enabled: boolean;
            timeout_ms: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        SearchProviderPatch: {
            /** @example brave */
            name?: string;
            /** @example https://api.search.brave.com */
            base_url?: string;
            /**
             * @description Write-only: stored encrypted, never returned (responses show api_key_hint)
             * @example BSA-0123456789abcdef
             */
            api_key?: string | null;
            enabled?: boolean;
            /** @example 15000 */
            timeout_ms?: number;
        };
        ExchangeRatesRefresh: {
            ecb: components["schemas"]["ExchangeRatesSourceOutcome"];
            wide: components["schemas"]["ExchangeRatesSourceOutcome"];
        };
        ExchangeRatesSourceOutcome: {
            /** @enum {string} */
            status: "refreshed" | "skipped" | "fresh" | "failed";
            source?: string;
            /** Format: date */
            date?: string;
            currencies?: number;
            written?: number;
            /** @description skipped: `not_configured`; failed: `network`, `timeout`, `http_status`, `bad_response`, `rate_limited`, `provider_error` */
            reason?: string;
        };
        ManualExchangeRate: {
            /** @example AED */
            currency: string;
            /** @example USD */
            base: string;
            /** @example 3.6725 */
            rate: string;
            /**
             * Format: date
             * @description The UTC day it was set
             * @example 2024-01-04
             */
            date: string;
            /** @enum {string} */
            source: "manual";
            /** Format: date-time */
            updated_at: string;
        };
        ManualExchangeRateBody: {
            /**
             * @description ISO 4217 code
             * @example USD
             */
            base: string;
            /**
             * @description 1 `base` = `rate` units of the currency: a positive decimal (string, or a JSON number) up to 1000000000, at most 12 decimals
             * @example 3.6725
             */
            rate: string | number;
        };
        /** @description The wallet of the caller's organisation, which every member spends */
        CreditBalance: {
            balance: number;
            /** @description Code of the plan in effect (an ended one is free) */
            plan: string;
            /** @description Feature codes of that plan */
            features: string[];
            /** Format: date-time */
            plan_expires_at: string | null;
            /** Format: date-time */
            trial_ends_at: string | null;
            /** @description On the free trial: the same answer as /auth/me is_trial_active and /credits/subscription on_trial */
            on_trial: boolean;
            /** @description Allowance credits that expire, soonest first */
            expiring: {
                amount: number;
                /** Format: date-time */
                expires_at: string;
            }[];
            /** @description Credits the caller spent of the wallet this UTC calendar month (less refunds) */
            member_used_month: number;
            /** @description The caller's monthly credit limit in the organisation; null: none */
            member_limit: number | null;
        };
        LedgerPage: {
            items: components["schemas"]["LedgerEntry"][];
            total: number;
            page: number;
            size: number;
        };
        LedgerEntry: {
            /** Format: uuid */
            id: string;
            /** @description The organisation whose wallet changed */
            org_id: string;
            /** @description The member who spent, bought or moved it */
            user_id: string;
            delta: number;
            balance_after: number;
            /** @enum {string} */
            kind: "registration_grant" | "referral" | "purchase" | "plan_allowance" | "consumption" | "refund" | "expiry" | "admin_adjustment" | "org_transfer";
            source_type: string;
            source_id: string | null;
            operation: string | null;
            actor_id: string | null;
            note: string | null;
            /** Format: date-time */
            created_at: string;
        };
        CreditQuote: {
            /** Format: uuid */
            quote_id: string;
            /** @enum {string} */
            operation: "translate" | "marketing" | "chat" | "discovery" | "followup_draft" | "quotation_from_inquiry" | "agent_run";
            /** @description What the route charges with `quote_id` */
            credits: number;
            /** @description The organisation's credits now */
            balance: number;
            /** @description Whether the caller can spend `credits` now (balance and monthly limit) */
            sufficient: boolean;
            /**
             * Format: date-time
             * @description The quote holds until then (10 minutes)
             * @example 2026-11-24T08:30:00.000Z
             */
            expires_at: string;
        };
        CreditQuoteBody: {
            /**
             * @description The billable operation's cost key (system config credits.costs)
             * @example translate
             * @enum {string}
             */
            operation: "translate" | "marketing" | "chat" | "discovery" | "followup_draft" | "quotation_from_inquiry" | "agent_run";
            /**
             * @description The body the operation's route would get. Today's price is the operation's configured cost whatever the input (ADR 0108)
             * @example {
             *       "text": "Hello",
             *       "target_lang": "de"
             *     }
             */
            input: {
                [key: string]: unknown;
            };
        };
        Subscription: {
            /** @description Code of the plan in effect */
            plan: string;
            plan_name: string | null;
            /**
             * @description active: paid and renewing; cancelled: paid, runs to its end, then free; trialing: the free trial; granted: a paid plan without a payment (referral reward, admin); free
             * @enum {string}
             */
            status: "free" | "trialing" | "active" | "cancelled" | "granted";
            /** @enum {string|null} */
            billing_cycle: "monthly" | "yearly" | null;
            /**
             * Format: date-time
             * @example 2026-11-24T08:30:00.000Z
             */
            current_period_start: string | null;
            /**
             * Format: date-time
             * @example 2026-11-24T08:30:00.000Z
             */
            current_period_end: string | null;
            /**
             * Format: date-time
             * @description When the plan in effect ends (null: free or no end)
             */
            plan_expires_at: string | null;
            /**
             * Format: date-time
             * @description When the next payment is due; null when cancelled, on free or on the trial
             */
            renews_at: string | null;
            cancel_at_period_end: boolean;
            /** Format: date-time */
            cancel_requested_at: string | null;
            on_trial: boolean;
            /** Format: date-time */
            trial_ends_at: string | null;
        };
        PaymentOrder: {
            order_no: string;
            /** @enum {string} */
            kind: "credits" | "subscription";
            /** @enum {string} */
            status: "pending" | "paid" | "expired" | "cancelled" | "refunded" | "partially_refunded";
            /** @enum {string} */
            pay_type: "alipay" | "wxpay" | "card";
            /** @description Minor units */
            amount: number;
            currency: string;
            subject: string;
            credits: number | null;
            /** @description Plan code of a subscription order */
            plan: string | null;
            /** @enum {string|null} */
            billing_cycle: "monthly" | "yearly" | null;
            /** @description Where the payer goes to pay */
            pay_url: string | null;
            /** Format: date-time */
            expires_at: string;
            /** Format: date-time */
            paid_at: string | null;
            paid_late: boolean;
            refunded_amount: number;
            /** Format: date-time */
            created_at: string;
        };
        CreatePlanOrder: {
            /**
             * @description Plan code
             * @example pro
             */
            plan: string;
            /**
             * @description alipay and wxpay: unified gateway (or the sandbox); card: Stripe
             * @enum {string}
             */
            pay_type: "alipay" | "wxpay" | "card";
        };
        CreditPurchase: {
            /** Format: uuid */
            package_id: string;
            /**
             * @description alipay and wxpay: unified gateway (or the sandbox); card: Stripe
             * @enum {string}
             */
            pay_type: "alipay" | "wxpay" | "card";
        };
        PlanSubscription: {
            /** Format: uuid */
            plan_id: string;
            /** @enum {string} */
            billing_cycle: "monthly" | "yearly";
            /**
             * @description alipay and wxpay: unified gateway (or the sandbox); card: Stripe
             * @enum {string}
             */
            pay_type: "alipay" | "wxpay" | "card";
        };
        PaymentOrdersPage: {
            items: components["schemas"]["PaymentOrder"][];
            total: number;
            page: number;
            size: number;
        };
        CallbackAck: {
            /** @enum {string} */
            code: "SUCCESS";
        };
        CallbackReject: {
            /** @enum {string} */
            code: "FAIL";
            detail: string;
        };
        StripeAck: {
            /** @enum {boolean} */
            received: true;
        };
        Referrals: {
            code: string;
            /** @description FRONTEND_URL (else PUBLIC_BASE_URL)/register?ref=CODE */
            link: string;
            /** @description Days of Pro each party gets (system config) */
            reward_days: number;
            referrals: {
                user_id: string;
                /** @description The referred user's masked email */
                name: string;
                /** Format: date-time */
                rewarded_at: string;
                days: number;
            }[];
            referral_count: number;
            /** @description Days earned as referrer plus, if the caller was referred, their own reward */
            total_days_earned: number;
        };
        CertificationInput: {
            company_name: string;
            license_no: string;
            contact_name: string;
            contact_phone: string;
        };
        InvoiceRequest: {
            order_no: string;
            title: string;
            tax_number: string;
            /** Format: email */
            email: string;
        };
        InvoicesPage: {
            items: components["schemas"]["Invoice"][];
            total: number;
            page: number;
            size: number;
        };
    };
    responses: {
        /** @description `plan_limit_reached`: the plan's seats are taken by members and pending invitations (`limit: seats`, `max`) */
        SeatsTaken: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SeatsTaken"];
            };
        };
    };
    parameters: {
        /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency is unreachable; `checks` names which */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotReady"];
                };
            };
        };
    };
    getCsrfToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CsrfToken"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterRequest"];
            };
        };
        responses: {
            /** @description Registered and signed in */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Email already registered */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Incorrect email or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Account disabled */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startGuestSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Guest session */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    loginWithWechat: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WechatLoginRequest"];
            };
        };
        responses: {
            /** @description Signed in */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Code invalid or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Account disabled, or the guest's data would take the account past a plan limit (`limit`, `max`, `plans`; nothing moved) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RefreshRequest"];
            };
        };
        responses: {
            /** @description New session tokens */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description Refresh token invalid, expired, revoked or reused */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordChangeRequest"];
            };
        };
        responses: {
            /** @description Changed */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CSRF token, or an account without a password yet */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Current user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"] | components["schemas"]["GuestUser"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmailRequest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Mail on its way */
            202: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CSRF token, or a guest or an account without an address */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Address already verified */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthVerifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyEmailRequest"];
            };
        };
        responses: {
            /** @description Verified */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailVerified"];
                };
            };
            /** @description Link invalid, expired or already used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The new address was taken by another account meanwhile */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasswordForgot: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForgotPasswordRequest"];
            };
        };
        responses: {
            /** @description Accepted (whether or not the account exists) */
            202: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetPasswordRequest"];
            };
        };
        responses: {
            /** @description Password set */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Link invalid, expired or already used */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAuthEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailChangeRequest"];
            };
        };
        responses: {
            /** @description Confirmation mailed to the new address */
            202: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CSRF token, a guest, or a WeChat code of another WeChat user than the account's */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Another account has this address */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountDeleteInput"];
            };
        };
        responses: {
            /** @description Deleted; the session is over */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A guest session, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The owner of an organisation with other members: transfer ownership first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProfilePatch"];
            };
        };
        responses: {
            /** @description Updated user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"] | components["schemas"]["GuestUser"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsersMeDeletionCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Mailed to the account's address; good for 15 minutes */
            202: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDeletionCode"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A guest session, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account has a password, or no address to mail */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The mail provider did not take the mail (`mail_failed`) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The zip, as an attachment */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsageStats: {
        parameters: {
            query?: {
                start_date?: string;
                end_date?: string;
                /** @description Another member of the caller's organisation (manager+); default the caller */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageStats"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A member asking for another member's usage */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description user_id is not a member of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Organisation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchOrg: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrgPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role is below admin, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrgDocumentSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Document settings; every field null when never set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentSettings"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putOrgDocumentSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DocumentSettingsInput"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentSettings"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role is below admin, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: the logo is over 512 KB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrgMembers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Members, owner first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgMemberList"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrgMembersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["OrgMemberRemove"];
            };
        };
        responses: {
            /** @description Removed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgDeparture"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Below admin; the owner; an admin removed by an admin; or CSRF */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller themselves (use /org/leave) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchOrgMembersByUserId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrgMemberPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgMember"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Below admin; the owner's row; an admin changed by an admin; or CSRF */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrgLeave: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Left */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgDeparture"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The owner: transfer ownership first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrgTransferOwnership: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrgTransferOwnership"];
            };
        };
        responses: {
            /** @description The organisation as the caller (now an admin) sees it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Org"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller is not the owner, or CSRF */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such member of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller named themselves */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrgInvitationsAccept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                    /**
                     * @description Move the caller's records and remaining credits into the organisation
                     * @default false
                     */
                    bring_data?: boolean;
                };
            };
        };
        responses: {
            /** @description Joined */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgInvitationAccepted"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            402: components["responses"]["SeatsTaken"];
            /** @description Another address than the invited one, an unverified address, or CSRF */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No invitation has this token */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Used, revoked or expired; already a member; or the current organisation has other members */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrgInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending invitations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgInvitationList"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role is below admin, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postOrgInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @description `owner` changes hands only through POST /api/v1/org/transfer-ownership
                     * @enum {string}
                     */
                    role: "admin" | "manager" | "member";
                    /** @default 7 */
                    expires_in_days?: number;
                };
            };
        };
        responses: {
            /** @description Invited */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgInvitation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            402: components["responses"]["SeatsTaken"];
            /** @description The caller's role is below admin, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already a member, or already invited (revoke to re-send) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrgInvitationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role is below admin, or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such invitation of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already accepted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importCustomers: {
        parameters: {
            query?: {
                /** @description true: validate and preview only; nothing is written */
                dry_run?: "0" | "1" | "true" | "false";
                /** @description With dry_run=true: return the uploaded sheet with an `error` column instead of JSON */
                errors_file?: "xlsx" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description .xlsx or .csv, at most 10 MB
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description Import result (or, with errors_file, the sheet with an error column) */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
                    "text/csv": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `customers` limit of the caller's plan would be passed (detail names the max and the plans that allow more); nothing was written; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description Over 10 MB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The sheet was rejected (row errors), or the request was invalid */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportRejected"] | components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importProducts: {
        parameters: {
            query?: {
                /** @description true: validate and preview only; nothing is written */
                dry_run?: "0" | "1" | "true" | "false";
                /** @description With dry_run=true: return the uploaded sheet with an `error` column instead of JSON */
                errors_file?: "xlsx" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description .xlsx or .csv, at most 10 MB
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description Import result (or, with errors_file, the sheet with an error column) */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
                    "text/csv": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over 10 MB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The sheet was rejected (row errors), or the request was invalid */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportRejected"] | components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportCustomers: {
        parameters: {
            query?: {
                /** @description xlsx: number and date cells, frozen header; csv: UTF-8 with BOM, CRLF */
                format?: "xlsx" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The spreadsheet */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
                    "text/csv": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProductsExport: {
        parameters: {
            query?: {
                /** @description xlsx: number and date cells, frozen header; csv: UTF-8 with BOM, CRLF */
                format?: "xlsx" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The spreadsheet */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
                    "text/csv": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description me: what the caller holds; pool: the organisation's pool; a member's user_id: what they hold (manager, admin or owner; 403 for a member naming another member). Default: every customer the caller sees */
                owner?: ("me" | "pool") | string;
                status?: components["schemas"]["CustomerStatus"];
                /** @description Case-insensitive search in company, contact name and email */
                q?: string;
                /** @description A field, descending with a leading '-'; default -created_at */
                sort?: "created_at" | "-created_at" | "updated_at" | "-updated_at" | "last_contact_at" | "-last_contact_at" | "next_followup_at" | "-next_followup_at" | "estimated_value" | "-estimated_value" | "company" | "-company";
                country?: string;
                tag?: string;
                /** @description true: only customers whose next_followup_at has come */
                due?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of customers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A member naming another member in `owner` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `customers` limit of the caller's plan would be passed (detail names the max and the plans that allow more); nothing was written; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersHealthOverview: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Overview */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerHealthOverview"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersHealthScores: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description score (most at risk first, the default) or -score */
                sort?: "score" | "-score";
                level?: "healthy" | "watch" | "at_risk" | "critical";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of scores */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerHealthScorePage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersSilent: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Longest silent first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SilentCustomerPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersByIdHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Health */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerHealth"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersByIdFollowups: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of follow-ups */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowupPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersByIdFollowups: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FollowupInput"];
            };
        };
        responses: {
            /** @description Logged */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowupResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A pool customer: a member claims it before changing it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Customer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A pool customer: a member claims it before changing it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Status change not allowed from the current status; or a pool customer (claim it first) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerStatusConflict"] | components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerBulkBody"];
            };
        };
        responses: {
            /** @description What was done and what was refused, id by id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerBulkResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description transfer by a member: it needs the manager role; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersByIdClaim: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Claimed: the caller holds it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerOwnershipChange"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not in the pool, or a pool rule refuses it: `detail` names the rule (pool.max_claims_per_day, pool.max_customers_per_member, pool.reclaim_cooldown_days) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersByIdRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PoolReleaseBody"];
            };
        };
        responses: {
            /** @description Released: in the pool */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerOwnershipChange"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already in the pool */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersByIdTransfer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PoolTransferBody"];
            };
        };
        responses: {
            /** @description Transferred */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerOwnershipChange"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller is a member: transfers need the manager role; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description That member already holds it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomersByIdOwnership: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerOwnershipPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such customer visible to the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Name or SKU contains */
                q?: string;
                category?: string;
                sort?: "created_at" | "-created_at" | "name" | "-name" | "price" | "-price" | "sku" | "-sku";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of products */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createProduct: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    sku?: string | null;
                    description?: string | null;
                    category?: string | null;
                    /** @default pcs */
                    unit?: string;
                    /** @description Minor units of currency */
                    price?: number | null;
                    /**
                     * @description ISO 4217 code in upper case
                     * @default USD
                     * @example USD
                     */
                    currency?: string;
                    moq?: number | null;
                    /** @description Days from order to shipment the seller quotes */
                    lead_time_days?: number | null;
                    /** @description Other names buyers use for the product (any language): an inquiry line naming one matches it */
                    aliases?: string[] | null;
                    hs_code?: string | null;
                    image_url?: string | null;
                    specs?: {
                        [key: string]: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SKU already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such product in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such product in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProductPatch"];
            };
        };
        responses: {
            /** @description The product */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such product in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SKU already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listQuotations: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                status?: "draft" | "sent" | "accepted" | "rejected" | "expired" | "superseded";
                customer_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of quotations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuotationsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createQuotation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    customer_id?: string | null;
                    /**
                     * @description ISO 4217 code in upper case
                     * @example USD
                     */
                    currency: string;
                    /** @enum {string|null} */
                    incoterm?: "EXW" | "FCA" | "FAS" | "FOB" | "CFR" | "CIF" | "CPT" | "CIP" | "DAP" | "DPU" | "DDP" | null;
                    /** Format: date */
                    valid_until?: string | null;
                    /** @default 0 */
                    discount?: number;
                    /** @default 0 */
                    shipping?: number;
                    notes?: string | null;
                    /** @description The buyer's postal address, lines separated by "\n" */
                    buyer_address?: string | null;
                    /** @description The Incoterm's named place ("Ningbo" of "FOB Ningbo") */
                    named_place?: string | null;
                    /** @description Port of loading */
                    port_of_loading?: string | null;
                    /** @description e.g. "25 days after deposit" */
                    lead_time?: string | null;
                    /** @description Packing lines, separated by "\n" ("20 pcs per carton") */
                    packing?: string | null;
                    /** @description 1 to 200 items; their names and descriptions (a product's, where an item takes it) together at most 100,000 characters */
                    items: components["schemas"]["QuotationItemInput"][];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quotation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportQuotation: {
        parameters: {
            query?: {
                format?: "pdf" | "xlsx";
                /** @description `proforma`: the proforma invoice of an accepted quotation (409 `quotation_not_accepted` otherwise), numbered on its first export and the same on every later one */
                document?: "quotation" | "proforma";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document, as an attachment named after the quote number */
            200: {
                headers: {
                    /** @description An attachment and its file name (`attachment; filename="..."`) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": Blob;
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": Blob;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `quotation_not_accepted`: a proforma invoice of a quotation that is not accepted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Validation failed, or `unsupported_script`: a PDF of right-to-left text (Arabic, Hebrew...), which it cannot shape (`script`, `field`); the xlsx carries it */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PDF font not available on this runtime, too many documents being made, or the document not made within its time budget (DOCUMENT_TIME_BUDGET_MS) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postQuotationsByIdRevisions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new revision (a draft) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quotation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `quotation_not_revisable`: a draft, or already revised */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postQuotationsByIdDuplicate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The copy (a draft) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quotation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The customer is in the pool or held by another member */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getQuotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quotation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quotation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteQuotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateQuotation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuotationPatch"];
            };
        };
        responses: {
            /** @description The quotation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Quotation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a draft, or a transition that is not allowed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendQuotation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The buyer's address, or a list of them */
                    to: string | string[];
                    cc?: string[];
                    /** @description Default "Quotation <quote_no> from <seller>" */
                    subject?: string;
                    /** @description The mail's text above the signature; also the note of the follow-up logged on the customer */
                    message?: string;
                    /**
                     * @default pdf
                     * @enum {string}
                     */
                    format?: "pdf" | "xlsx";
                };
            };
        };
        responses: {
            /** @description Sent: the quotation, the follow-up logged, what was mailed */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuotationSendResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such quotation the caller may change */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not a draft or sent quotation (`conflict`), a line priced 0 (`quotation_unpriced`, `lines`), its customer in the pool or another member's, or an Idempotency-Key still in flight */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The mail provider refused or failed (`mail_failed`, `reason`: invalid_message, network, timeout, rejected, rate_limited, unavailable); nothing was written */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExchangeRates: {
        parameters: {
            query?: {
                base?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Rates */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExchangeRates"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No exchange rates are loaded yet */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExchangeConvert: {
        parameters: {
            query: {
                /** @description Major units of `from` as a plain decimal: non-negative, at most 15 integer and 8 fraction digits */
                amount: string;
                from: string;
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Conversion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversion"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No exchange rates are loaded yet */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNotifications: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Only read (true) or unread (false) ones */
                is_read?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of notifications */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotificationsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchNotifications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarkNotifications"];
            };
        };
        responses: {
            /** @description Marked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarkNotificationsResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNotificationsReadAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Marked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarkNotificationsResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    translate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The buyer's message, 1 to 5000 characters after trimming
                     * @example Bonjour, pouvez-vous m'envoyer le prix pour 500 pièces ?
                     */
                    text: string;
                    /**
                     * @description The seller's language
                     * @example zh
                     */
                    target_lang: string;
                    /**
                     * @description The buyer's language; detected when omitted
                     * @example fr
                     */
                    source_lang?: string;
                    /**
                     * @description Also suggest 3 replies in the buyer's language
                     * @default false
                     */
                    with_replies?: boolean;
                    /**
                     * Format: uuid
                     * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
                     */
                    quote_id?: string;
                };
            };
        };
        responses: {
            /** @description The translation, stored in the caller's history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslateResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits (nothing was charged or written) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `translate` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description `quote_id` names no quote of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running, or the quote was used or expired */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No translation provider is available; credits returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTranslations: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of translations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTranslationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The translation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Translation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such translation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postGlossaryImport: {
        parameters: {
            query?: {
                /** @description true: validate and count only; nothing is written */
                dry_run?: "0" | "1" | "true" | "false";
                /** @description The source language of rows without a source_lang column or cell */
                source_lang?: string;
                /** @description The target language of rows without a target_lang column or cell */
                target_lang?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description .xlsx or .csv, at most 10 MB
                     */
                    file: Blob;
                };
            };
        };
        responses: {
            /** @description What was written, and each invalid row's errors */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryImportResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Over 10 MB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The file could not be read, or it has no source_term or target_term column */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportRejected"] | components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGlossary: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                source_lang?: string;
                target_lang?: string;
                /** @description Part of either term, case-insensitively */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of terms */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postGlossary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GlossaryTermRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryTerm"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The pair already has this source term (whatever its case) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteGlossaryById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such term in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchGlossaryById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GlossaryTermPatch"];
            };
        };
        responses: {
            /** @description The term */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GlossaryTerm"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such term in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The pair already has this source term (whatever its case) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    chat: {
        parameters: {
            query?: {
                /** @description true: answer as text/event-stream (events meta, delta, done, or error) instead of JSON; `stream: true` in the body does the same */
                stream?: boolean;
            };
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatInput"];
            };
        };
        responses: {
            /** @description The answer (JSON), or its event stream with stream=true */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatResult"];
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits (nothing written) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `ai_assistant` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description No such conversation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key is still being processed */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description With stream=true: the caller already holds its maximum of open streams */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No AI provider answered; the credits were returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAiActionsByIdConfirm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ActionConfirmInput"];
            };
        };
        responses: {
            /** @description Performed now, or before (replayed) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActionConfirmResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `customers` limit of the caller's plan would be passed (detail names the max and the plans that allow more); nothing was written; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description No such action of the caller (or a customer it names) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The owning route refused (e.g. a pool customer) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAiQuickQuestions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Quick questions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickQuestions"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAiConversations: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAiConversationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such conversation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAiConversationsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such conversation of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFaq: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Only this status */
                status?: "candidate" | "active";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgFaqPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postFaq: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    question: string;
                    answer: string;
                    /** @example en */
                    language: string;
                    /**
                     * @description Default active
                     * @default active
                     * @enum {string}
                     */
                    status?: "candidate" | "active";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgFaq"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Only the organisation's owner and admins write its FAQ; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteFaqById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Only the organisation's owner and admins write its FAQ; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such FAQ entry in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchFaqById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrgFaqPatch"];
            };
        };
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrgFaq"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Only the organisation's owner and admins write its FAQ; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such FAQ entry in the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAiRepliesByIdAccept: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted before: the candidate it made */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptedReply"];
                };
            };
            /** @description The new candidate */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptedReply"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such reply suggestion in the caller's translations */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateMarketingContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarketingGenerateInput"];
            };
        };
        responses: {
            /** @description The generated and stored material */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingGenerated"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `marketing` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description No such product of the caller, or quote_not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No AI provider answered; the credits were returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMarketingContents: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                kind?: "product_description" | "email" | "social_post" | "whatsapp_message" | "ad_copy";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of material */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingContentsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMarketingEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarketingEventInput"];
            };
        };
        responses: {
            /** @description Recorded */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingEvent"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMarketingStats: {
        parameters: {
            query?: {
                /** @description First UTC day; default 29 days before to */
                from?: string;
                /** @description Last UTC day, included; default today */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Counts by event type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingStats"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCustomersByIdFollowupsDraft: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FollowupDraftInput"];
            };
        };
        responses: {
            /** @description The draft */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FollowupDraft"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `followup_engine` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description No such customer of the caller (nothing charged) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No AI provider answered usably; the credits were returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    draftQuotationFromInquiry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuotationFromInquiryInput"];
            };
        };
        responses: {
            /** @description The created draft quotation and what was extracted */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuotationFromInquiry"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `quotations` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description No such customer of the caller (nothing charged) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No AI provider answered usably; the credits were returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDiscoverySearch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DiscoverySearchInput"];
            };
        };
        responses: {
            /** @description The companies found, with the queries run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoverySearchResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `discovery` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description quote_not_found: no such quote of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No search or AI provider answered, or the search took longer than 120 s (code `timed_out`, its own message); the credits were returned */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDiscoveryJobs: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DiscoverySearchInput"];
            };
        };
        responses: {
            /** @description The job was queued */
            202: {
                headers: {
                    Location: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoveryJobStarted"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits (nothing written) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `discovery` feature (detail names the plans that do); or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description quote_not_found: no such quote of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No search or AI provider is configured; nothing charged */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDiscoveryJobsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoveryJob"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such discovery job of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDiscoveryRecords: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Matches the product or the market (case-insensitive substring) */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of records */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoveryRecordPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postDiscoveryRecords: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example LED panel lights 600x600 */
                    product: string;
                    /** @example Germany */
                    market: string;
                    companies: {
                        /** @example Acme Lighting GmbH */
                        name: string;
                        /** @example https://acme-lighting.example/ */
                        website: string | null;
                        /** @example Germany */
                        country: string | null;
                        /**
                         * @description Why the company may buy the product (LLM analysis of the search results)
                         * @example Importer and wholesaler of commercial LED lighting for offices
                         */
                        summary: string;
                        /** @example 82 */
                        fit_score: number;
                        /** @description Only as found in the search results */
                        contact: {
                            /** Format: email */
                            email: string | null;
                            phone: string | null;
                        };
                        /**
                         * @description What the company is to the seller, from the analysis given the seller's own catalogue: `buyer`, `distributor` (importer, wholesaler), `manufacturer` (may use the product), `competitor` (only when the analysis says so), `unknown` (not stated)
                         * @default unknown
                         * @example distributor
                         * @enum {string}
                         */
                        role?: "buyer" | "distributor" | "manufacturer" | "competitor" | "unknown";
                        /**
                         * @description Why that role, in a sentence from the search results
                         * @default
                         * @example Imports and wholesales commercial LED lighting
                         */
                        role_reason?: string;
                        sources: (components["schemas"]["DiscoveredCompanySource"] | string)[];
                        /**
                         * Format: uuid
                         * @description A customer of the caller's (one they see) that is this company: same website or email domain, or the same name once punctuation and legal suffixes (Ltd, GmbH, S.A., 有限公司) are dropped
                         */
                        existing_customer_id?: string | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description The saved record */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoveryRecord"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDiscoveryRecords: {
        parameters: {
            query?: {
                /** @description The record to delete (the path form is preferred) */
                id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such discovery record of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDiscoveryRecordsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiscoveryRecord"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such discovery record of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDiscoveryRecordsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such discovery record of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    legacyPostAgentStart: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example LED panel lights */
                    product: string;
                    /** @example Germany */
                    market: string;
                    /**
                     * @default 10
                     * @example 10
                     */
                    max_leads?: number;
                    /**
                     * @description The most the run may cost: charged at most this now, and the run stops at the stage boundary where the next stage would pass it (status budget_exhausted, its leads kept; what its stages did not use is refunded). ADR 0108
                     * @example 8
                     */
                    max_credits?: number;
                    /**
                     * Format: uuid
                     * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
                     */
                    quote_id?: string;
                };
            };
        };
        responses: {
            /** @description The run was queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentStarted"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits (nothing written) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `agent` feature (detail names the plans that do), or this month's agent runs are used up; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description quote_not_found: no such quote of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    legacyGetAgentPipelines: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pipelines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPipelinesPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    legacyGetAgentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pipeline */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPipeline"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    legacyGetAgentByIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description The caller already holds its maximum of open streams */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    legacyPostAgentByIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run was cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCancelled"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run already ended (succeeded, failed or cancelled) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAgentStart: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example LED panel lights */
                    product: string;
                    /** @example Germany */
                    market: string;
                    /**
                     * @default 10
                     * @example 10
                     */
                    max_leads?: number;
                    /**
                     * @description The most the run may cost: charged at most this now, and the run stops at the stage boundary where the next stage would pass it (status budget_exhausted, its leads kept; what its stages did not use is refunded). ADR 0108
                     * @example 8
                     */
                    max_credits?: number;
                    /**
                     * Format: uuid
                     * @description A quote from POST /api/v1/credits/quote for this operation: charged exactly its credits; 409 when it expired
                     */
                    quote_id?: string;
                };
            };
        };
        responses: {
            /** @description The run was queued */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentStarted"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not enough credits (nothing written) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description The caller's plan does not include the `agent` feature (detail names the plans that do), or this month's agent runs are used up; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDenied"];
                };
            };
            /** @description quote_not_found: no such quote of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description quote_used, quote_expired or quote_wrong_operation; or a request with this Idempotency-Key is still running */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentPipelines: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of pipelines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPipelinesPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pipeline */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPipeline"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgentByIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description The caller already holds its maximum of open streams */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAgentByIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run was cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentCancelled"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such pipeline of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The run already ended (succeeded, failed or cancelled) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAiUsage: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description The routed task */
                task?: string;
                outcome?: "ok" | "error" | "timeout" | "unusable" | "cancelled";
                /** @description First UTC day */
                start_date?: string;
                /** @description Last UTC day */
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of AI calls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiUsagePage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminStats: {
        parameters: {
            query?: {
                start_date?: string;
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Dashboard figures */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminStats"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsers: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Matches email or name */
                q?: string;
                role?: "user" | "admin";
                status?: "active" | "disabled";
                /** @description The plan code the list shows (`free`, `pro`, `business`, ...) */
                plan?: string;
                is_guest?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of users */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUser"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminUsersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminUserPatch"];
            };
        };
        responses: {
            /** @description The updated user */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUser"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such user */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description It is the last active admin */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminOrgs: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Matches the organisation's name or its owner's e-mail */
                q?: string;
                /** @description The plan in effect (`free`, `pro`, `business`, ...) */
                plan?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of organisations */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOrgPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminUsageLogs: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                user_id?: string;
                event?: string;
                start_date?: string;
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of usage logs */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageLogPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminAuditLog: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                actor_id?: string;
                /** @description `<resource>.<verb>` */
                action?: string;
                target_type?: string;
                target_id?: string;
                start_date?: string;
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit rows */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAuditLogPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminSystemConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All entries */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SystemConfigEntry"][];
                    };
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminSystemConfigByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemConfigEntry"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAdminSystemConfigByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SystemConfigPut"];
            };
        };
        responses: {
            /** @description The stored entry */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SystemConfigEntry"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown key */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminCreditUsers: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of balances */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditUsersPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminCreditConsumptions: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                user_id?: string;
                operation?: string;
                status?: "charged" | "refunded";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of consumptions */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditConsumptionsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminCreditUsersByUserIdAdjust: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditAdjustment"];
            };
        };
        responses: {
            /** @description New balance */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditAdjustmentResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The user has fewer credits than the deduction */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InsufficientCredits"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminCreditPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Packages */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AdminCreditPackage"][];
                    };
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminCreditPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    credits: number;
                    price: number;
                    /**
                     * @description ISO 4217 code in upper case
                     * @default CNY
                     * @example USD
                     */
                    currency?: string;
                    /** @default true */
                    active?: boolean;
                    /** @default 0 */
                    sort_order?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCreditPackage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminCreditPackagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Retired */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCreditPackage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminCreditPackagesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditPackagePatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminCreditPackage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminCreditPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plans */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["AdminSubscriptionPlan"][];
                    };
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminCreditPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                    name: string;
                    /**
                     * @description ISO 4217 code in upper case
                     * @default CNY
                     * @example USD
                     */
                    currency?: string;
                    monthly_price: number;
                    monthly_credits: number;
                    /** @default [] */
                    features?: string[];
                    tier: number;
                    /** @default true */
                    active?: boolean;
                    /** @default 0 */
                    sort_order?: number;
                    /**
                     * @description Quotas of the plan; null or missing: unlimited
                     * @default {}
                     */
                    limits?: {
                        customers?: number | null;
                        agent_runs_per_month?: number | null;
                        seats?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSubscriptionPlan"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Code already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminCreditPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Retired */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSubscriptionPlan"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminCreditPlansById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionPlanPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSubscriptionPlan"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminPayments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Order number prefix, or part of the buyer's email */
                q?: string;
                status?: "pending" | "paid" | "expired" | "cancelled" | "refunded" | "partially_refunded";
                pay_type?: "alipay" | "wxpay" | "card";
                start_date?: string;
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPaymentsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminPaymentsStats: {
        parameters: {
            query?: {
                start_date?: string;
                end_date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Payment figures */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentStats"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminPaymentsByOrderNoRefund: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_no: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Minor units; defaults to all that is left to refund */
                    amount?: number;
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Refunded */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundResult"];
                };
            };
            /** @description Accepted by the provider, settled later */
            202: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefundResult"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Order not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is not paid */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminCertifications: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                status?: "pending" | "approved" | "rejected";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of certifications */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CertificationsPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminCertificationsByIdApprove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Approved */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Certification"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already reviewed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminCertificationsByIdReject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CertificationRejection"];
            };
        };
        responses: {
            /** @description Rejected */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Certification"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already reviewed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminInvoices: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                status?: "requested" | "issued";
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invoices */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminInvoicesPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminInvoicesByIdIssue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceIssue"];
            };
        };
        responses: {
            /** @description Issued */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already reviewed */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminAiProviders: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                kind?: "llm" | "mt";
                enabled?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiProviderPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminAiProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example openai */
                    name: string;
                    /**
                     * @description `llm`: OpenAI-compatible chat completions; `mt`: DeepL v2 translation
                     * @enum {string}
                     */
                    kind: "llm" | "mt";
                    /** @example https://api.openai.com/v1 */
                    base_url: string;
                    /**
                     * @description Write-only: stored encrypted, never returned (responses show api_key_hint)
                     * @example sk-live-0123456789abcdef
                     */
                    api_key?: string;
                    /**
                     * @description Model ids (llm: 1 to 50, the first is the default; mt: may be empty)
                     * @default []
                     * @example [
                     *       "gpt-4o-mini",
                     *       "gpt-4o"
                     *     ]
                     */
                    models?: string[];
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @default 30000
                     * @example 30000
                     */
                    timeout_ms?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminAiProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminAiProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminAiProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AiProviderPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminAiRouting: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Routing and effective candidates */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiRouting"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAdminAiRouting: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AiRoutingInput"];
            };
        };
        responses: {
            /** @description The stored routing */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AiRouting"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminTranslationQuotas: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                provider_id?: string;
                period?: "day" | "month";
                enabled?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of quotas */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationQuotaPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminTranslationQuotas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    provider_id: string;
                    /** @enum {string} */
                    period: "day" | "month";
                    /** @example 500000 */
                    char_limit: number;
                    /** @default true */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationQuota"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider already has a quota for that period */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminTranslationQuotasById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The quota */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationQuota"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminTranslationQuotasById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminTranslationQuotasById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TranslationQuotaPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationQuota"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The provider already has a quota for that period */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminTranslationQuotasByIdReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Reset */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranslationQuota"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminFaq: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                enabled?: boolean;
                /** @description Matches the question */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of FAQ entries */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FaqPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminFaq: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example What is your MOQ? */
                    question: string;
                    /** @example Our MOQ is 500 pieces. */
                    answer: string;
                    /**
                     * @default []
                     * @example [
                     *       "moq",
                     *       "minimum order"
                     *     ]
                     */
                    keywords?: string[];
                    /** @default true */
                    enabled?: boolean;
                    /** @default 0 */
                    sort_order?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Faq"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminFaqById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Faq"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminFaqById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminFaqById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FaqPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Faq"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminAiCalls: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description The routed task */
                task?: string;
                outcome?: "ok" | "error" | "timeout" | "unusable" | "cancelled";
                /** @description First UTC day */
                start_date?: string;
                /** @description Last UTC day */
                end_date?: string;
                /** @description The provider's configured name */
                provider?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of AI calls */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAiCallPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminSearchProviders: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                kind?: "brave" | "searxng";
                enabled?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of providers */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchProviderPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminSearchProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @example brave */
                    name: string;
                    /**
                     * @description `brave`: Brave Search API (needs a key); `searxng`: a SearXNG instance's JSON API (a key, if set, is sent as a Bearer token for an authenticating proxy)
                     * @enum {string}
                     */
                    kind: "brave" | "searxng";
                    /** @example https://api.search.brave.com */
                    base_url: string;
                    /**
                     * @description Write-only: stored encrypted, never returned (responses show api_key_hint)
                     * @example BSA-0123456789abcdef
                     */
                    api_key?: string;
                    /** @default true */
                    enabled?: boolean;
                    /**
                     * @default 15000
                     * @example 15000
                     */
                    timeout_ms?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAdminSearchProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The provider */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminSearchProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchAdminSearchProvidersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchProviderPatch"];
            };
        };
        responses: {
            /** @description Updated */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchProvider"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Name already used */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postAdminExchangeRatesRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What each source did */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExchangeRatesRefresh"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putAdminExchangeRatesByCurrency: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description ISO 4217 code */
                currency: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ManualExchangeRateBody"];
            };
        };
        responses: {
            /** @description The stored manual rate */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ManualExchangeRate"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteAdminExchangeRatesByCurrency: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description ISO 4217 code */
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Admin rights required; or a missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The currency has no manual rate */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Balance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditBalance"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCreditHistory: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                /** @description Only this member's rows (manager+; a member may name only themself) */
                user_id?: string;
                kind?: "registration_grant" | "referral" | "purchase" | "plan_allowance" | "consumption" | "refund" | "expiry" | "admin_adjustment" | "org_transfer";
                operation?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ledger rows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A member filtering by another member */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description user_id is not a member of the caller's organisation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCreditsQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditQuoteBody"];
            };
        };
        responses: {
            /** @description The quote */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditQuote"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has no configured price */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCreditPackages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Packages */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["CreditPackage"][];
                    };
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Plans */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["SubscriptionPlan"][];
                    };
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditsSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCreditsSubscriptionCancel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription, now cancelled at period end */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, or not the organisation's owner */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No running paid subscription */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description On the trial, which ends by itself */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPaymentOrder: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePlanOrder"];
            };
        };
        responses: {
            /** @description Order created; send the payer to pay_url */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentOrder"];
                };
            };
            /** @description The payment provider refused the order */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, a guest, or not the organisation's owner (billing is the owner's) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown package or plan */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still being processed */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payment provider not configured or unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    purchaseCredits: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreditPurchase"];
            };
        };
        responses: {
            /** @description Order created; send the payer to pay_url */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentOrder"];
                };
            };
            /** @description The payment provider refused the order */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, a guest, or not the organisation's owner (billing is the owner's) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown package or plan */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still being processed */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payment provider not configured or unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    subscribe: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a repeat with the same key gets the first outcome again and is charged once (1 to 255 visible ASCII characters, scoped to the caller). */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanSubscription"];
            };
        };
        responses: {
            /** @description Order created; send the payer to pay_url */
            201: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentOrder"];
                };
            };
            /** @description The payment provider refused the order */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token, a guest, or not the organisation's owner (billing is the owner's) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown package or plan */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A request with this Idempotency-Key is still being processed */
            409: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payment provider not configured or unavailable */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentOrders: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
                status?: "pending" | "paid" | "expired" | "cancelled" | "refunded" | "partially_refunded";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentOrdersPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_no: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order */
            200: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentOrder"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such order of the caller's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Rate limited (see Retry-After) */
            429: {
                headers: {
                    /** @description Requests the caller's budget allows in its window */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "RateLimit-Reset"?: number;
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted (applied, duplicate or recorded) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackAck"];
                };
            };
            /** @description Verified but malformed body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackReject"];
                };
            };
            /** @description Verification failed; nothing changed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CallbackReject"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsStripeWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Received (applied, duplicate or recorded) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StripeAck"];
                };
            };
            /** @description Signature missing, wrong, out of time, or body malformed */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Stripe is not configured */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentsSandboxByOrderNo: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_no: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No sandbox order (or a real gateway is configured) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsSandboxByOrderNoPay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_no: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Back to the sandbox page */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No sandbox order (or a real gateway is configured) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is no longer awaiting payment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPaymentsSandboxByOrderNoCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_no: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Back to the sandbox page */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No sandbox order (or a real gateway is configured) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The order is no longer awaiting payment */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReferrals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Referrals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Referrals"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Guests cannot invite */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCertification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Certification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Certification"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description None submitted */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postCertification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CertificationInput"];
            };
        };
        responses: {
            /** @description Submitted, pending review */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Certification"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Already pending or approved */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoices: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page: 1 to 1000 (else 422), 20 by default */
                size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invoices */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoicesPage"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postInvoices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InvoiceRequest"];
            };
        };
        responses: {
            /** @description Requested */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Missing or invalid access token */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid CSRF token */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such order of the caller */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Order not paid, or already invoiced */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Temporarily unavailable (see Retry-After) */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhooksWechat: {
        parameters: {
            query?: {
                signature?: string;
                timestamp?: string;
                nonce?: string;
                openid?: string;
                encrypt_type?: string;
                msg_signature?: string;
                echostr?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The echostr */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Signature missing, wrong or out of time; its nonce already used for another message; or plaintext while safe mode is configured */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WECHAT_TOKEN is not set */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postWebhooksWechat: {
        parameters: {
            query?: {
                signature?: string;
                timestamp?: string;
                nonce?: string;
                openid?: string;
                encrypt_type?: string;
                msg_signature?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A passive text reply (XML), or `success` (no reply / answer still running) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml": string;
                    "text/plain": string;
                };
            };
            /** @description Not WeChat message XML */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Signature missing, wrong or out of time; its nonce already used for another message; or plaintext while safe mode is configured */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WECHAT_TOKEN is not set */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postJobsByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description Missing or invalid Upstash-Signature */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such job */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request validation failed */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationError"];
                };
            };
            /** @description Unexpected failure (generic message and a request id) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description QStash signing keys or PUBLIC_BASE_URL are not configured */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
