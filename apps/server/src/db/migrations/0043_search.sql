-- One search over invoices, bills and journal entries (issue 17 §1, decision 033): by text (any
-- 3 or more characters inside the description), by amount, by number or payment reference.
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it; PGlite loads
-- it with the database (db/database.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Text: trigram GIN indexes answer ILIKE '%text%' without reading every row.
CREATE INDEX journal_entry_description_trgm ON journal_entry USING gin (description gin_trgm_ops);
CREATE INDEX invoice_description_trgm ON invoice USING gin (description gin_trgm_ops);
CREATE INDEX payable_description_trgm ON payable USING gin (description gin_trgm_ops);

-- Amounts: an entry is found by any of its postings' amounts, a bill by its total.
CREATE INDEX journal_line_amount_idx ON journal_line (instance_id, amount);
CREATE INDEX payable_amount_idx ON payable (instance_id, amount);

-- References: the QR or creditor reference of an invoice, the reference number of a bill.
CREATE INDEX invoice_payment_reference_idx ON invoice (instance_id, payment_reference);
CREATE INDEX payable_reference_idx ON payable (instance_id, reference_number) WHERE reference_number IS NOT NULL;
