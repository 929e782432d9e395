-- The Swiss VAT return (issue 13 §3, decision 020): the instance's VAT registration and how it
-- reports, and the returns it has filed. Both tables belong to accounting (the return is computed
-- from postings, and filing locks the period and books the settlement entry).

-- One row per instance: registration (VAT number and date, MWSTG art. 14/66), method (effective or
-- net tax rate, art. 36/37) with the approved net tax rates, period (art. 35), basis (agreed or
-- received consideration, art. 39/40) and the ledger account the settlement goes to.
CREATE TABLE vat_settings (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  vat_number text NOT NULL CHECK (vat_number ~ '^CHE-[0-9]{3}\.[0-9]{3}\.[0-9]{3} (MWST|TVA|IVA)$'),
  registration_date date NOT NULL CHECK (registration_date BETWEEN '1995-01-01' AND '2300-12-31'),
  method text NOT NULL CHECK (method IN ('effective', 'net')),
  -- [{ "ratePercent": "6.2", "accountFrom": "3000" | null, "accountTo": "3199" | null }], 1–2 for 'net', none for 'effective'.
  net_tax_rates jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(net_tax_rates) = 'array' AND jsonb_array_length(net_tax_rates) <= 2),
  period text NOT NULL CHECK (period IN ('monthly', 'quarterly', 'half-yearly', 'yearly')),
  basis text NOT NULL CHECK (basis IN ('agreed', 'received')),
  -- NULL: the default settlement account (2209 "Abrechnungskonto MWST", created on first filing).
  settlement_account_id integer,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  CHECK ((method = 'net') = (jsonb_array_length(net_tax_rates) > 0)),
  FOREIGN KEY (instance_id, settlement_account_id) REFERENCES ledger_account (instance_id, id)
);

-- A filed return: its figures as filed (JSON of @bilan/domain VatFigures), the tax moved from each
-- VAT account to the settlement account (so a correction books only the difference), who filed it
-- and when, the lock of the period end and the settlement entry. Append-only: a later change to a
-- filed period is a correction return (type 2) for the difference; type 3 is the yearly
-- reconciliation (Jahresabstimmung) of a calendar year.
CREATE TABLE vat_return (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  date_from date NOT NULL,
  date_to date NOT NULL,
  type_of_submission smallint NOT NULL CHECK (type_of_submission IN (1, 2, 3)),
  method text NOT NULL CHECK (method IN ('effective', 'net')),
  basis text NOT NULL CHECK (basis IN ('agreed', 'received')),
  vat_number text NOT NULL,
  figures jsonb NOT NULL CHECK (jsonb_typeof(figures) = 'object'),
  -- [{ "accountId": 12, "amount": "810.00" }]: credit balance moved per VAT account (input tax negative).
  accounts jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(accounts) = 'array'),
  lock_date date NOT NULL,
  settlement_entry_id integer,
  filed_at timestamptz NOT NULL DEFAULT now(),
  filed_by uuid,
  PRIMARY KEY (instance_id, id),
  CHECK (date_from <= date_to AND lock_date >= date_to),
  FOREIGN KEY (instance_id, settlement_entry_id) REFERENCES journal_entry (instance_id, id)
);
-- One original per period and one yearly reconciliation per year, also under parallel requests.
CREATE UNIQUE INDEX vat_return_original_key ON vat_return (instance_id, date_from, date_to) WHERE type_of_submission = 1;
CREATE UNIQUE INDEX vat_return_yearly_key ON vat_return (instance_id, date_from) WHERE type_of_submission = 3;
CREATE INDEX vat_return_period_idx ON vat_return (instance_id, date_from, date_to);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['vat_settings', 'vat_return']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
