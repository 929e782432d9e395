-- Payables and banking, audit follow-up (issue #5): VAT rate per bill, the liability account a bill
-- was booked on (payables 2000 or the staff account for expenses), per-bill execution dates in a
-- transaction group, the idempotency token of /payable/pay, and what reconciliation needs on bank
-- transactions (the counterparty's IBAN, why a transaction stayed unmatched).

-- VAT rate of the bill as a fraction (0.081, 0.026, 0.038, 0); NULL when only the amount was entered.
ALTER TABLE payable ADD COLUMN vat_rate numeric(6, 4) CHECK (vat_rate >= 0 AND vat_rate < 1);
-- The account credited when the bill was approved, so its payment debits the same account.
ALTER TABLE payable ADD COLUMN liability_account_id integer;
ALTER TABLE payable ADD FOREIGN KEY (instance_id, liability_account_id) REFERENCES ledger_account (instance_id, id);
-- Requested execution date of the bill's credit transfer (its PmtInf block in the pain.001).
ALTER TABLE payable ADD COLUMN execution_date date CHECK (execution_date BETWEEN '1900-01-01' AND '2300-12-31');
-- Token of the /payable/pay call that paid the bill: the same call again answers the paid bill.
ALTER TABLE payable ADD COLUMN payment_token text CHECK (length(payment_token) BETWEEN 1 AND 200);

-- The other party's IBAN (camt RltdPties/DbtrAcct or CdtrAcct), for matching by IBAN.
ALTER TABLE bank_transaction ADD COLUMN counterparty_iban text CHECK (length(counterparty_iban) <= 42);
-- Why an automatic match did not book (e.g. the booking date is locked, several candidates).
ALTER TABLE bank_transaction ADD COLUMN unmatched_reason text CHECK (length(unmatched_reason) <= 500);
