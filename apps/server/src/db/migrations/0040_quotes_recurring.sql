-- Quotes (Offerten) and recurring invoices (issue 15 §4, decision 031).
--
-- quote: the invoice's head and lines without payment reference or postings. Its own number per
-- instance (next_ids(instance, 'quote')), shown as 'AN-' + number padded to 5 ('AN-00001', Angebot).
-- Status: draft → sent → accepted | declined; accepted and declined are final. 'Create invoice' on an
-- accepted quote records the invoice it became (invoice_uuid), once: the update is conditional on
-- invoice_uuid IS NULL under the quote's row lock. A deleted (pending) invoice clears the link only.
CREATE TABLE quote (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  id integer NOT NULL CHECK (id > 0),
  company_uuid uuid NOT NULL,
  address_id integer NOT NULL,
  payment_profile_id integer NOT NULL,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sent', 'accepted', 'declined')),
  vat_rate vat_rate NOT NULL,
  currency_id smallint NOT NULL DEFAULT 1 CHECK (currency_id BETWEEN 1 AND 18),
  fx_rate numeric(24, 10) NOT NULL DEFAULT 1 CHECK (fx_rate > 0),
  date_quote date NOT NULL CHECK (date_quote BETWEEN '1900-01-01' AND '2300-12-31'),
  valid_until date NOT NULL CHECK (valid_until >= date_quote AND valid_until <= '2300-12-31'),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  invoice_uuid uuid,
  status_changed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  UNIQUE (instance_id, uuid),
  UNIQUE (instance_id, id),
  -- Only an accepted quote becomes an invoice.
  CHECK (invoice_uuid IS NULL OR status = 'accepted'),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid),
  FOREIGN KEY (instance_id, address_id) REFERENCES address (instance_id, id),
  FOREIGN KEY (instance_id, payment_profile_id) REFERENCES payment_profile (instance_id, id),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE SET NULL (invoice_uuid)
);
CREATE INDEX quote_status_idx ON quote (instance_id, status, date_quote);

-- Lines of a quote: an invoice line's columns (0005, 0009), in the quote's currency.
CREATE TABLE quote_item (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  quote_uuid uuid NOT NULL,
  position integer NOT NULL,
  label text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 200),
  quantity numeric(18, 4) NOT NULL CHECK (quantity >= 0),
  price numeric(20, 4) NOT NULL CHECK (price >= 0),
  discount numeric(7, 4) CHECK (discount BETWEEN 0 AND 100),
  discount_abs numeric(20, 2) CHECK (discount_abs >= 0),
  vat_rate vat_rate,
  account_id integer,
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, quote_uuid) REFERENCES quote (instance_id, uuid) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id)
);
CREATE INDEX quote_item_quote_idx ON quote_item (instance_id, quote_uuid);

-- A recurring-invoice template: customer, lines, currency and payment profile as the invoice form
-- has them, with an interval, a start, an optional end and the next date an invoice is due. The job
-- runner creates the invoice of each period once: recurring_invoice_run is unique per (template,
-- period date), and next_date moves on with an update conditional on its old value.
CREATE TABLE recurring_invoice (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL CHECK (id > 0),
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  company_uuid uuid NOT NULL,
  address_id integer NOT NULL,
  payment_profile_id integer NOT NULL,
  vat_rate vat_rate NOT NULL,
  currency_id smallint NOT NULL DEFAULT 1 CHECK (currency_id BETWEEN 1 AND 18),
  fx_rate numeric(24, 10) NOT NULL DEFAULT 1 CHECK (fx_rate > 0),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  payment_term_days integer NOT NULL CHECK (payment_term_days BETWEEN 0 AND 3650),
  interval text NOT NULL CHECK (interval IN ('monthly', 'quarterly', 'yearly')),
  start_date date NOT NULL CHECK (start_date BETWEEN '1900-01-01' AND '2300-12-31'),
  end_date date CHECK (end_date >= start_date AND end_date <= '2300-12-31'),
  -- The period n (from 0) is dated start_date + n intervals (clamped to the month's end).
  next_index integer NOT NULL DEFAULT 0 CHECK (next_index >= 0),
  next_date date NOT NULL,
  -- 'send': post and e-mail each invoice to contact_ids (as /api/invoice/email); 'draft': leave it pending.
  send_mode text NOT NULL DEFAULT 'draft' CHECK (send_mode IN ('draft', 'send')),
  contact_ids integer[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  CHECK (send_mode = 'draft' OR cardinality(contact_ids) > 0),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid),
  FOREIGN KEY (instance_id, address_id) REFERENCES address (instance_id, id),
  FOREIGN KEY (instance_id, payment_profile_id) REFERENCES payment_profile (instance_id, id)
);

-- Lines of a template, as quote_item.
CREATE TABLE recurring_invoice_item (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  recurring_id integer NOT NULL,
  position integer NOT NULL,
  label text NOT NULL CHECK (length(btrim(label)) BETWEEN 1 AND 200),
  quantity numeric(18, 4) NOT NULL CHECK (quantity >= 0),
  price numeric(20, 4) NOT NULL CHECK (price >= 0),
  discount numeric(7, 4) CHECK (discount BETWEEN 0 AND 100),
  discount_abs numeric(20, 2) CHECK (discount_abs >= 0),
  vat_rate vat_rate,
  account_id integer,
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, recurring_id) REFERENCES recurring_invoice (instance_id, id) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id)
);
CREATE INDEX recurring_invoice_item_template_idx ON recurring_invoice_item (instance_id, recurring_id);

-- One row per template and period: the invoice it created (null once that pending invoice was
-- deleted), whether it was sent, and why sending was refused when it was (the invoice then stays pending).
CREATE TABLE recurring_invoice_run (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  recurring_id integer NOT NULL,
  period_date date NOT NULL,
  invoice_uuid uuid,
  sent boolean NOT NULL DEFAULT false,
  error text CHECK (length(error) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, recurring_id, period_date),
  FOREIGN KEY (instance_id, recurring_id) REFERENCES recurring_invoice (instance_id, id) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE SET NULL (invoice_uuid)
);
CREATE INDEX recurring_invoice_run_invoice_idx ON recurring_invoice_run (instance_id, invoice_uuid);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['quote', 'quote_item', 'recurring_invoice', 'recurring_invoice_item', 'recurring_invoice_run']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;

-- The job of each template waits for its next date (startAfter); 'short' keeps at most one waiting
-- job per template (singleton key). The handler is safe to repeat, so a retry or a second runner
-- creates nothing twice.
SELECT pgboss.create_queue('recurring-invoice', '{"policy": "short", "retryLimit": 5, "retryDelay": 300, "retryBackoff": true, "expireInSeconds": 600, "retentionMinutes": 20160}');
