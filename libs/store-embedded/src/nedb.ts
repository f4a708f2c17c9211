// @seald-io/nedb's type declarations describe `exports.default`, but the package (CommonJS) exports the
// class itself, which is what an ESM default import receives at runtime. This module reconciles the two.
import nedb from '@seald-io/nedb';

export type Datastore<T extends Record<string, unknown>> = nedb.default<T>;
export const Datastore = nedb as unknown as typeof nedb.default;
