-- Issue #4 audit: every invoice has a due date (default invoice date + 30 days) and an exchange rate
-- to the books' currency (EUR invoices in CHF books); every line may carry its own VAT rate and
-- revenue ledger account (docs/decisions/008-vat-rates-to-accounts.md).

ALTER TABLE invoice ADD COLUMN fx_rate numeric(24, 10) NOT NULL DEFAULT 1 CHECK (fx_rate > 0);

-- Due date for the invoices made before it was required. The table's RLS is FORCE'd, so the owner
-- sees no rows without an instance set: lift FORCE for this one statement, as the owner.
ALTER TABLE invoice NO FORCE ROW LEVEL SECURITY;
UPDATE invoice SET date_due = date_invoice + 30 WHERE date_due IS NULL;
ALTER TABLE invoice FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice ALTER COLUMN date_due SET NOT NULL;

-- The line's VAT rate (fraction; NULL = the invoice's rate) and revenue account (NULL = the account
-- of its rate, chosen when the invoice is sent).
ALTER TABLE invoice_item ADD COLUMN vat_rate numeric(7, 5) CHECK (vat_rate >= 0 AND vat_rate < 1);
ALTER TABLE invoice_item ADD COLUMN account_id integer;
ALTER TABLE invoice_item ADD CONSTRAINT invoice_item_account_fk FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id);
CREATE INDEX invoice_item_account_idx ON invoice_item (instance_id, account_id) WHERE account_id IS NOT NULL;
