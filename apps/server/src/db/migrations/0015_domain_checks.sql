-- The database refuses what the domain refuses (issue 11 §5).

-- A posting moves money: 0.00 is refused, as the entry schema refuses it (amount must be greater
-- than 0). Document postings already leave out lines of 0 (a VAT line at 0 %, an exchange
-- difference that rounds away); the journal import skips the zero rows of real exports. Added
-- NOT VALID and validated when no zero line exists yet, so books that imported zero rows before
-- this migration keep them as history while no new one can be written.
ALTER TABLE journal_line DROP CONSTRAINT journal_line_amount_check;
ALTER TABLE journal_line ADD CONSTRAINT journal_line_amount_positive CHECK (amount > 0) NOT VALID;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM journal_line WHERE amount = 0) THEN
    ALTER TABLE journal_line VALIDATE CONSTRAINT journal_line_amount_positive;
  END IF;
END
$$;

-- One type for every VAT rate: a fraction (STYLE.md `vatRate`; "0.081") with 5 decimals, since
-- a rate is entered as a percent with up to 3 decimals (spec §5: 'VAT must be a number with at
-- most 3 decimals'), and one bound, 0 ≤ rate < 1. Before: numeric(7,5) on instance, invoice and
-- invoice_item, numeric(6,4) on payable (widened here, losslessly), each with its own CHECK.
CREATE DOMAIN vat_rate AS numeric(7, 5) CHECK (VALUE >= 0 AND VALUE < 1);

ALTER TABLE invoice DROP CONSTRAINT invoice_vat_rate_check;
ALTER TABLE invoice ALTER COLUMN vat_rate TYPE vat_rate;
ALTER TABLE invoice_item DROP CONSTRAINT invoice_item_vat_rate_check;
ALTER TABLE invoice_item ALTER COLUMN vat_rate TYPE vat_rate;
ALTER TABLE payable DROP CONSTRAINT payable_vat_rate_check;
ALTER TABLE payable ALTER COLUMN vat_rate TYPE vat_rate;
-- The workplace's default rate keeps its narrower rule on top (spec §5 onboarding: 1 % to 99 %).
ALTER TABLE instance ALTER COLUMN vat_rate TYPE vat_rate;
