-- Lists paged by key (issue 18 §2, decision 036). An account's ledger is read in (date, entry,
-- line) order; with the whole key in its index, a page is one index range — the old index
-- (instance_id, account_id, date_ledger) left the day's postings to be sorted, and a page deep in a
-- long history to be sorted from the start.
CREATE INDEX journal_line_account_key_idx ON journal_line (instance_id, account_id, date_ledger, entry_id, id);
DROP INDEX journal_line_account_idx;

-- Open invoices and open bills of the listed companies (company list with open amounts).
CREATE INDEX invoice_company_status_idx ON invoice (instance_id, company_uuid, status_id);
CREATE INDEX payable_company_status_idx ON payable (instance_id, company_uuid, status);
DROP INDEX invoice_company_idx;
DROP INDEX payable_company_idx;

-- The inbox, newest first.
CREATE INDEX mail_received_idx ON mail (instance_id, received_at, id);

-- Quotes, newest first, whatever their status (the quotes list).
CREATE INDEX quote_date_idx ON quote (instance_id, date_quote, id);
