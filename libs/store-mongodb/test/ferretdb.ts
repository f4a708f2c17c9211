// What FerretDB 1.24 — the MongoDB-wire server CI runs the MongoDB suites against (scripts/ferretdb.mjs,
// docs/adr/0021-ferretdb-for-the-mongodb-suites.md) — does not guarantee of the store's contract
// (libs/store/test/contract.ts, `Guarantee`). Each entry skips that one test on FerretDB, with this text
// in its title; MongoDB gives all of them, and production code is written for MongoDB.
//
// Two more differences are taken away by the gate CI puts in front of FerretDB (tools/ferretdb/gate.go),
// so the tests of those guarantees run and pass: FerretDB alone applies an update as read, change in Go,
// write back (two updates of one document at once can lose one; two findAndModify claims can take the
// same document), and it refuses `expireAfterSeconds` and findAndModify's projection outright; the gate
// runs writes one at a time per database and takes the two options out.
import type { Guarantee } from '../../store/test/contract.js';

export const FERRETDB_LACKS: Partial<Record<Guarantee, string>> = {
  'ttl-expiry': 'no TTL indexes in FerretDB 1.x: documents past their TTL are never deleted',
  'update-duplicate-key':
    'an update that breaks a unique index fails with an internal error (code 1), not E11000',
  'duplicate-key-names-index': 'its E11000 message names the collection but not the index',
  'unique-missing-as-null':
    'a unique index lets any number of documents lack its field (PostgreSQL NULLs are distinct)',
  'sparse-compound-unique':
    'a compound unique index lets documents that lack one of its fields repeat the others',
  'multikey-unique': 'a unique index over an array compares whole arrays, not their elements',
  'unique-build-duplicate-key':
    'a unique index over duplicates fails with an internal error (code 1), not E11000',
  'pull-by-condition': '$pull with a condition or a document changes nothing',
  'push-slice': '$push ignores $slice (arrays keep every element)',
  'find-and-modify-projection':
    'findAndModify has no projection (the gate drops it: whole documents come back)',
};
