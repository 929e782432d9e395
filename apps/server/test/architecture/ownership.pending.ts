/**
 * Places where a module still names a table another module owns (issue 11 §3), file → tables,
 * recorded when the ownership test was introduced. This list only shrinks: phase 2 of issue 11 drains
 * it to zero by calling the owners' exported functions instead. The test fails for a use not listed
 * here and for an entry that no longer occurs, so the list cannot go stale.
 */
export const PENDING: Readonly<Record<string, readonly string[]>> = {
  'modules/accounting/accounting.sql.ts': ['instance'],
};
