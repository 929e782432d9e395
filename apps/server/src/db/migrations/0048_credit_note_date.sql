-- The credit notes, oldest first, paged by key (issue 18 §2, decision 036): `invoice/credit-note/list`
-- without an invoice reads (date_credit, number) ascending. Without this index every page sorted all
-- credit notes of the instance (first 50 of 40,000: 55 ms, EXPLAIN ANALYZE on PostgreSQL); with it a
-- page is one index range (0.06 ms). One invoice's notes stay on credit_note_invoice_idx; reminders
-- walk their unique key (instance_id, invoice_uuid, level), recurring templates the primary key.
CREATE INDEX credit_note_date_idx ON credit_note (instance_id, date_credit, number);
