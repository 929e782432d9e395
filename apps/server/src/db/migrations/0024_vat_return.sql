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

-- The coded postings summed per calendar month, kept by statement triggers in the posting's own
-- transaction, as account_period_balance keeps the month balances (0001, decision 003): the return
-- of a quarter or a year reads a few rows per month instead of every posting (issue 13: a year of a
-- million lines in ≤ 200 ms); only the days of a month cut by the period are read from the postings.
-- The application reads it and never writes it (the triggers run as the owner).
CREATE TABLE vat_period_balance (
  instance_id uuid NOT NULL,
  period date NOT NULL CHECK (extract(day FROM period) = 1),
  vat_code text NOT NULL,
  vat_role text NOT NULL,
  vat_percent numeric(6, 3) NOT NULL,
  account_id integer NOT NULL,
  -- Σ vat_base and Σ vat_amount of the postings (signed for the return, decision 019), and their number.
  base numeric(22, 2) NOT NULL DEFAULT 0,
  amount numeric(22, 2) NOT NULL DEFAULT 0,
  lines integer NOT NULL DEFAULT 0,
  PRIMARY KEY (instance_id, period, vat_code, vat_role, vat_percent, account_id),
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id) ON DELETE CASCADE
);

CREATE FUNCTION journal_lines_vat_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO vat_period_balance AS b (instance_id, period, vat_code, vat_role, vat_percent, account_id, base, amount, lines)
      SELECT instance_id, date_trunc('month', date_ledger)::date, vat_code, vat_role, vat_percent, account_id, -sum(vat_base), -sum(vat_amount), -count(*)
        FROM old_lines WHERE vat_code IS NOT NULL
       GROUP BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (instance_id, period, vat_code, vat_role, vat_percent, account_id)
      DO UPDATE SET base = b.base + excluded.base, amount = b.amount + excluded.amount, lines = b.lines + excluded.lines;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO vat_period_balance AS b (instance_id, period, vat_code, vat_role, vat_percent, account_id, base, amount, lines)
      SELECT instance_id, date_trunc('month', date_ledger)::date, vat_code, vat_role, vat_percent, account_id, sum(vat_base), sum(vat_amount), count(*)
        FROM new_lines WHERE vat_code IS NOT NULL
       GROUP BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (instance_id, period, vat_code, vat_role, vat_percent, account_id)
      DO UPDATE SET base = b.base + excluded.base, amount = b.amount + excluded.amount, lines = b.lines + excluded.lines;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_line_vat_insert AFTER INSERT ON journal_line
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_vat_changed();
CREATE TRIGGER journal_line_vat_update AFTER UPDATE ON journal_line
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_vat_changed();
CREATE TRIGGER journal_line_vat_delete AFTER DELETE ON journal_line
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_vat_changed();

-- The postings coded so far (0023's back-fill, and what was posted since): row security is lifted
-- for this one statement (the migration sets no instance), as 0023 does.
ALTER TABLE journal_line NO FORCE ROW LEVEL SECURITY;
INSERT INTO vat_period_balance (instance_id, period, vat_code, vat_role, vat_percent, account_id, base, amount, lines)
  SELECT instance_id, date_trunc('month', date_ledger)::date, vat_code, vat_role, vat_percent, account_id, sum(vat_base), sum(vat_amount), count(*)
    FROM journal_line WHERE vat_code IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5, 6;
ALTER TABLE journal_line FORCE ROW LEVEL SECURITY;

ALTER TABLE vat_period_balance ENABLE ROW LEVEL SECURITY;
ALTER TABLE vat_period_balance FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON vat_period_balance USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT ON vat_period_balance TO bilan_app;
