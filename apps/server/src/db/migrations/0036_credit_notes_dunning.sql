-- Credit notes (issue 15 §2, decision 027): a reduction of a sent invoice, full or per line, with its
-- own number per instance ('GS-' + number padded to 6 on the wire and the PDF), posted at its date
-- as the counter-entry of the credited lines (revenue and output VAT of the original lines' accounts
-- and rates, coded with the reduction code R81/R26/R38 → Ziffer 235 where the instance has one).
-- open amount of an invoice = total − payments − write-offs − credit notes.
CREATE TABLE credit_note (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  -- Per instance, 1, 2, 3 … (next_ids(instance, 'credit_note')).
  number integer NOT NULL CHECK (number > 0),
  invoice_uuid uuid NOT NULL,
  date_credit date NOT NULL CHECK (date_credit BETWEEN '1900-01-01' AND '2300-12-31'),
  reason text NOT NULL DEFAULT '' CHECK (length(reason) <= 1000),
  -- In the invoice's currency: net, VAT and total (the total rounded to 5 Rappen for CHF).
  net numeric(20, 2) NOT NULL CHECK (net > 0),
  vat numeric(20, 2) NOT NULL CHECK (vat >= 0),
  total numeric(20, 2) NOT NULL CHECK (total > 0),
  entry_id integer,
  -- One-time confirmation token: the same token on the same invoice creates one credit note.
  token text NOT NULL CHECK (length(token) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  UNIQUE (instance_id, number),
  UNIQUE (instance_id, invoice_uuid, token),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, entry_id) REFERENCES journal_entry (instance_id, id)
);
CREATE INDEX credit_note_invoice_idx ON credit_note (instance_id, invoice_uuid);

-- What one credit note takes off one invoice line: `quantity` (of the line's unit) and `amount` (net,
-- the line's currency, 2 decimals). Σ amount per invoice line ≤ the line's total.
CREATE TABLE credit_note_item (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  credit_note_id integer NOT NULL,
  invoice_item_id integer NOT NULL,
  quantity numeric(20, 4),
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, credit_note_id) REFERENCES credit_note (instance_id, id) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, invoice_item_id) REFERENCES invoice_item (instance_id, id) ON DELETE CASCADE
);
CREATE INDEX credit_note_item_note_idx ON credit_note_item (instance_id, credit_note_id);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['credit_note', 'credit_note_item']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
