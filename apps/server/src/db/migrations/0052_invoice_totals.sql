-- An invoice's totals kept with it (issue 18 §2): the lists built every listed invoice's totals from
-- its lines at each read (about a fifth of a list page's server time, and the company list's open
-- amounts read every sent invoice's lines). The totals follow from the lines, the VAT rate, the
-- currency and the date by rules that live in TypeScript (@bilan/domain invoiceTotals: VAT per rate
-- by supply date, 5-Rappen rounding), so the database does not compute them; it only forgets them.
--
-- `totals` is what invoicing last computed (documents.service.ts `StoredTotals`), or NULL. Any change
-- of what they follow from sets it to NULL here, whoever makes the change, so a stored value is never
-- stale: a missed write path costs a computation at the next read, never a wrong amount. A read that
-- computes them stores them only if the invoice's row is still the version it read (xmin), so a
-- change committed in between wins.
ALTER TABLE invoice ADD COLUMN totals jsonb;

-- A line added, changed or removed: its invoice's totals are forgotten. The UPDATE runs even when
-- totals is already NULL: it gives the invoice's row a new version (xmin), which is what a reader
-- that computed from the old lines checks before storing (invoicing.sql.ts storeInvoiceTotals).
CREATE FUNCTION invoice_item_totals_stale() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    IF TG_OP <> 'INSERT' THEN
      UPDATE invoice SET totals = NULL WHERE instance_id = OLD.instance_id AND uuid = OLD.invoice_uuid;
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.invoice_uuid IS DISTINCT FROM OLD.invoice_uuid) THEN
      UPDATE invoice SET totals = NULL WHERE instance_id = NEW.instance_id AND uuid = NEW.invoice_uuid;
    END IF;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER invoice_item_totals_stale AFTER INSERT OR UPDATE OR DELETE ON invoice_item
  FOR EACH ROW EXECUTE FUNCTION invoice_item_totals_stale();

-- The invoice's own inputs changed: the VAT rate, the currency (5-Rappen rounding), the date (the
-- rates in force) and the exchange rate (the total in the books' currency).
CREATE FUNCTION invoice_totals_stale() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    NEW.totals := NULL;
    RETURN NEW;
  END
  $$;
CREATE TRIGGER invoice_totals_stale BEFORE UPDATE ON invoice
  FOR EACH ROW WHEN ((NEW.vat_rate, NEW.currency_id, NEW.date_invoice, NEW.fx_rate) IS DISTINCT FROM (OLD.vat_rate, OLD.currency_id, OLD.date_invoice, OLD.fx_rate))
  EXECUTE FUNCTION invoice_totals_stale();
