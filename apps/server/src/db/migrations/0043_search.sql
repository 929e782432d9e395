-- One search over invoices, bills and journal entries (issue 17 §1, decision 033): by number, by
-- payment reference (here), by amount and by text (0044).

-- References: the QR or creditor reference of an invoice, the reference number of a bill.
CREATE INDEX invoice_payment_reference_idx ON invoice (instance_id, payment_reference);
CREATE INDEX payable_reference_idx ON payable (instance_id, reference_number) WHERE reference_number IS NOT NULL;
