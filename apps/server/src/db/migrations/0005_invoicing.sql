-- Sales invoices and their lines (spec §3 Invoice / Invoice item, §4 Invoice status, issue #4 §3),
-- and the public share keys of invoices. Tenant tables follow 0001: instance_id, FORCE'd RLS,
-- composite foreign keys, per-instance ids via next_ids('invoice' | 'invoice_item').

CREATE TABLE invoice (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  -- Per-instance number; shown as BILAN + id padded to 6 (spec §5 "Reference numbers").
  id integer NOT NULL CHECK (id > 0),
  company_uuid uuid NOT NULL,
  address_id integer NOT NULL,
  payment_profile_id integer NOT NULL,
  -- InvoiceStatus: pending 1, sent 2, paid 3, denied 4 (spec §4).
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id BETWEEN 1 AND 4),
  -- VAT rate as a fraction (0.081), one per invoice.
  vat_rate numeric(7, 5) NOT NULL CHECK (vat_rate >= 0 AND vat_rate < 1),
  currency_id smallint NOT NULL DEFAULT 1 CHECK (currency_id BETWEEN 1 AND 18),
  date_invoice date NOT NULL CHECK (date_invoice BETWEEN '1900-01-01' AND '2300-12-31'),
  date_due date CHECK (date_due BETWEEN '1900-01-01' AND '2300-12-31'),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  -- QR reference (27 digits, with a QR-IBAN) or creditor reference (RF…, with an IBAN), fixed at creation.
  payment_reference text NOT NULL CHECK (payment_reference ~ '^([0-9]{27}|RF[0-9]{2}[A-Z0-9]{1,21})$'),
  bank_ref text CHECK (length(bank_ref) <= 200),
  -- Ledger date of the last status change that posted.
  ledger_date date,
  sent_entry_id integer,
  paid_entry_id integer,
  denied_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  UNIQUE (instance_id, uuid),
  UNIQUE (instance_id, id),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid),
  FOREIGN KEY (instance_id, address_id) REFERENCES address (instance_id, id),
  FOREIGN KEY (instance_id, payment_profile_id) REFERENCES payment_profile (instance_id, id),
  FOREIGN KEY (instance_id, sent_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, paid_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, denied_entry_id) REFERENCES journal_entry (instance_id, id)
);
CREATE INDEX invoice_company_idx ON invoice (instance_id, company_uuid);
CREATE INDEX invoice_status_idx ON invoice (instance_id, status_id, date_invoice);

CREATE TABLE invoice_item (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  invoice_uuid uuid NOT NULL,
  label text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 200),
  quantity numeric(18, 4) NOT NULL CHECK (quantity >= 0),
  price numeric(20, 4) NOT NULL CHECK (price >= 0),
  discount numeric(7, 4) CHECK (discount BETWEEN 0 AND 100),
  discount_abs numeric(20, 2) CHECK (discount_abs >= 0),
  currency_id smallint NOT NULL DEFAULT 1 CHECK (currency_id BETWEEN 1 AND 18),
  fx_rate numeric(24, 10) NOT NULL DEFAULT 1 CHECK (fx_rate > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE
);
CREATE INDEX invoice_item_invoice_idx ON invoice_item (instance_id, invoice_uuid);

-- Public share links: only the SHA-256 of the random key is kept. bilan_auth resolves a link to its
-- instance without a tenant context; bilan_app creates and revokes its own instance's keys.
CREATE TABLE invoice_share (
  key_hash bytea PRIMARY KEY,
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  invoice_uuid uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE
);
CREATE INDEX invoice_share_invoice_idx ON invoice_share (instance_id, invoice_uuid);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['invoice', 'invoice_item', 'invoice_share']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
CREATE POLICY auth ON invoice_share TO bilan_auth USING (true);
GRANT SELECT ON invoice_share TO bilan_auth;
