-- Dunning (Mahnwesen, issue 15 §3, decision 030).
--
-- 1. invoice_charge (owned by invoicing): an amount added to an invoice's receivable after it was
--    sent — a dunning fee or late-payment interest. Posted debit receivable / credit a revenue
--    account at its date (source 'invoice', the invoice's uuid); it is part of the invoice's open
--    amount (Bexio: fees become part of what is open), so the QR-bill of the reminder (open + fee)
--    is paid against the invoice in one payment. `source_ref` is the reminder that charged it.
CREATE TABLE invoice_charge (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  invoice_uuid uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('dunning_fee', 'interest')),
  date_charge date NOT NULL CHECK (date_charge BETWEEN '1900-01-01' AND '2300-12-31'),
  -- In the invoice's currency.
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  entry_id integer,
  source_ref uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, entry_id) REFERENCES journal_entry (instance_id, id)
);
CREATE INDEX invoice_charge_invoice_idx ON invoice_charge (instance_id, invoice_uuid);

-- 2. The dunning module's tables.
-- Per instance: the account dunning fees are credited to (null = 3600 'Übrige Erlöse aus
-- Lieferungen und Leistungen' of the Swiss SME chart), and the yearly late-payment interest rate
-- (null = none; 5 % is the Swiss default interest, OR art. 104 al. 1).
CREATE TABLE dunning_settings (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  fee_account_id integer,
  interest_account_id integer,
  interest_rate numeric(7, 5) CHECK (interest_rate > 0 AND interest_rate < 1),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  FOREIGN KEY (instance_id, fee_account_id) REFERENCES ledger_account (instance_id, id),
  FOREIGN KEY (instance_id, interest_account_id) REFERENCES ledger_account (instance_id, id)
);

-- The reminder levels of an instance (none stored = the defaults in code: 3 levels). Level 1 is due
-- `days` after the invoice's due date, level n > 1 `days` after the reminder of level n − 1.
-- `texts`: per language (de, fr, it, en) the letter's title and body with {{placeholders}}.
CREATE TABLE dunning_level (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 9),
  days integer NOT NULL CHECK (days BETWEEN 0 AND 3650),
  fee numeric(20, 2) NOT NULL CHECK (fee >= 0),
  texts jsonb NOT NULL,
  PRIMARY KEY (instance_id, level)
);

-- One reminder per invoice and level: the unique key makes parallel identical confirmations create
-- it once. The letter is stored as issued (the PDF the customer got).
CREATE TABLE dunning_reminder (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  invoice_uuid uuid NOT NULL,
  level smallint NOT NULL CHECK (level BETWEEN 1 AND 9),
  date_reminder date NOT NULL CHECK (date_reminder BETWEEN '1900-01-01' AND '2300-12-31'),
  -- In the invoice's currency: what was open before this reminder, its fee and interest, and the
  -- QR-bill amount (open + fee + interest).
  open_before numeric(20, 2) NOT NULL CHECK (open_before > 0),
  fee numeric(20, 2) NOT NULL CHECK (fee >= 0),
  interest numeric(20, 2) NOT NULL CHECK (interest >= 0),
  amount_due numeric(20, 2) NOT NULL CHECK (amount_due > 0),
  delivery text NOT NULL CHECK (delivery IN ('email', 'print')),
  lang text NOT NULL CHECK (lang IN ('de', 'fr', 'it', 'en')),
  message_uuids uuid[] NOT NULL DEFAULT '{}',
  pdf bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  UNIQUE (instance_id, invoice_uuid, level),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['invoice_charge', 'dunning_settings', 'dunning_level', 'dunning_reminder']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
