-- Month balances are the triggers' bookkeeping (0001 journal_lines_changed, SECURITY DEFINER): the
-- application role reads them but may not write them, so no code path can make them disagree with
-- the postings. Cascades from ledger_account run as the table owner and are unaffected.
REVOKE INSERT, UPDATE, DELETE ON account_period_balance FROM bilan_app;
