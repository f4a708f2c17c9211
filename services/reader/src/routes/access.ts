// What every reader route declares about credentials (docs/api/reader.md "Authentication"): a Bearer
// token, or HTTP Basic with the username or email and an app token (Feedbin clients), checked by the
// platform before the body is read; and the scope the route needs (`create` implies `read` and
// `follow`; app tokens and Basic logins have every scope).
export const readScope = { auth: 'required', basic: true, scopes: ['read'] } as const;
export const followScope = { auth: 'required', basic: true, scopes: ['follow'] } as const;
export const createScope = { auth: 'required', basic: true, scopes: ['create'] } as const;
