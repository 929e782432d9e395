-- Payments of documents (issue 14 §3, decision 021): partial payments, cash discounts (Skonto),
-- small differences and fees deducted by the payer, each payment its own journal entry, reversed by
-- a storno entry (never deleted). invoice_payment belongs to invoicing, payable_payment to
-- payables, payment_tolerance to accounting (one instance setting both documents use).

-- One payment of a sales invoice. `amount` is what reached the bank, `fee` what the payer's bank
-- kept (booked to 6940), `write_off` the rest written off (cash discount or small difference); all
-- in the invoice's currency. open = total − Σ (amount + fee + write_off) of the rows not reversed.
CREATE TABLE invoice_payment (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  -- The payment's public key (the identity id is global: it would leak other instances' counts).
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  invoice_uuid uuid NOT NULL,
  date_paid date NOT NULL CHECK (date_paid BETWEEN '1900-01-01' AND '2300-12-31'),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  fee numeric(20, 2) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  write_off numeric(20, 2) NOT NULL DEFAULT 0 CHECK (write_off >= 0),
  write_off_kind text CHECK (write_off_kind IN ('discount', 'difference')),
  bank_account_id integer NOT NULL,
  -- The payment entry (bank and fee / receivable) and, for a cash discount or small difference, the
  -- write-off entry apart from it (a coded entry is a booking for the received-consideration return).
  entry_id integer,
  write_off_entry_id integer,
  -- One-time confirmation token of the call that booked it: the same token books nothing twice.
  token text CHECK (length(token) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  reversed_at timestamptz,
  reversed_by uuid,
  reversal_date date,
  reversal_entry_id integer,
  reversal_write_off_entry_id integer,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  CHECK (amount + fee + write_off > 0),
  CHECK ((write_off = 0) = (write_off_kind IS NULL)),
  CHECK ((reversed_at IS NULL) = (reversal_date IS NULL)),
  FOREIGN KEY (instance_id, invoice_uuid) REFERENCES invoice (instance_id, uuid) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, bank_account_id) REFERENCES ledger_account (instance_id, id),
  FOREIGN KEY (instance_id, entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, write_off_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, reversal_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, reversal_write_off_entry_id) REFERENCES journal_entry (instance_id, id)
);
CREATE INDEX invoice_payment_invoice_idx ON invoice_payment (instance_id, invoice_uuid);
CREATE UNIQUE INDEX invoice_payment_token_key ON invoice_payment (instance_id, invoice_uuid, token) WHERE token IS NOT NULL;

-- Invoices paid before this migration: their one payment (the paid entry) as a payment row, so the
-- open amount of every invoice is total − payments.
DO $$
BEGIN
  ALTER TABLE invoice NO FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_entry NO FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_line NO FORCE ROW LEVEL SECURITY;
  -- The amount is the receivable's credit (in the invoice's currency); the bank is the entry's first
  -- debit line (settlementPostings writes the bank line first, an exchange loss after it).
  INSERT INTO invoice_payment (instance_id, invoice_uuid, date_paid, amount, bank_account_id, entry_id, created_at)
  SELECT i.instance_id, i.uuid, e.date_ledger, r.amount, b.account_id, i.paid_entry_id, e.created_at
    FROM invoice i
    JOIN journal_entry e ON e.instance_id = i.instance_id AND e.id = i.paid_entry_id
    JOIN LATERAL (SELECT sum(l.amount_original) AS amount FROM journal_line l
                   WHERE l.instance_id = i.instance_id AND l.entry_id = e.id AND l.direction = -1
                     AND l.account_id IN (SELECT s.account_id FROM journal_line s
                                           WHERE s.instance_id = i.instance_id AND s.entry_id = i.sent_entry_id AND s.direction = 1)) r ON true
    JOIN LATERAL (SELECT l.account_id FROM journal_line l
                   WHERE l.instance_id = i.instance_id AND l.entry_id = e.id AND l.direction = 1 ORDER BY l.id LIMIT 1) b ON true
   WHERE i.status_id = 3 AND i.paid_entry_id IS NOT NULL AND r.amount > 0;
  ALTER TABLE invoice FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_entry FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_line FORCE ROW LEVEL SECURITY;
END $$;

-- One payment of a bill or expense, as invoice_payment (in the bill's currency), except that `fee` is
-- what our bank charged on top (a cost of ours): open = amount of the bill − Σ (amount + write_off).
-- Payments through a transaction group or a bank statement are rows too.
CREATE TABLE payable_payment (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer GENERATED ALWAYS AS IDENTITY,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  payable_id integer NOT NULL,
  date_paid date NOT NULL CHECK (date_paid BETWEEN '1900-01-01' AND '2300-12-31'),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  fee numeric(20, 2) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  write_off numeric(20, 2) NOT NULL DEFAULT 0 CHECK (write_off >= 0),
  write_off_kind text CHECK (write_off_kind IN ('discount', 'difference')),
  bank_account_id integer NOT NULL,
  entry_id integer,
  write_off_entry_id integer,
  token text CHECK (length(token) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  reversed_at timestamptz,
  reversed_by uuid,
  reversal_date date,
  reversal_entry_id integer,
  reversal_write_off_entry_id integer,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  CHECK (amount + fee + write_off > 0),
  CHECK ((write_off = 0) = (write_off_kind IS NULL)),
  CHECK ((reversed_at IS NULL) = (reversal_date IS NULL)),
  FOREIGN KEY (instance_id, payable_id) REFERENCES payable (instance_id, id) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, bank_account_id) REFERENCES ledger_account (instance_id, id),
  FOREIGN KEY (instance_id, entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, write_off_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, reversal_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, reversal_write_off_entry_id) REFERENCES journal_entry (instance_id, id)
);
CREATE INDEX payable_payment_payable_idx ON payable_payment (instance_id, payable_id);
CREATE UNIQUE INDEX payable_payment_token_key ON payable_payment (instance_id, payable_id, token) WHERE token IS NOT NULL;

DO $$
BEGIN
  ALTER TABLE payable NO FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_entry NO FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_line NO FORCE ROW LEVEL SECURITY;
  -- The bank is the entry's first credit line (settlementPostings: liability, bank, then an exchange gain).
  INSERT INTO payable_payment (instance_id, payable_id, date_paid, amount, bank_account_id, entry_id, token, created_at)
  SELECT p.instance_id, p.id, e.date_ledger, p.amount, b.account_id, p.payment_entry_id, p.payment_token, e.created_at
    FROM payable p
    JOIN journal_entry e ON e.instance_id = p.instance_id AND e.id = p.payment_entry_id
    JOIN LATERAL (SELECT l.account_id FROM journal_line l
                   WHERE l.instance_id = p.instance_id AND l.entry_id = e.id AND l.direction = -1 ORDER BY l.id LIMIT 1) b ON true
   WHERE p.status = 4 AND p.payment_entry_id IS NOT NULL;
  ALTER TABLE payable FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_entry FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_line FORCE ROW LEVEL SECURITY;
END $$;

-- The one-time confirmation token of /transaction-group/pay {id, token}: the call that paid the
-- group keeps it, so the same token answers the same group and books nothing.
ALTER TABLE transaction_group ADD COLUMN pay_token text CHECK (length(pay_token) BETWEEN 1 AND 200);

-- How far a payment may fall short of the open amount and still settle the document by a write-off
-- (cash discount or small difference): up to `percent` of the document's total or up to `amount`
-- (in the books' currency), whichever is larger. No row: 2 % or 5.00.
CREATE TABLE payment_tolerance (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  percent numeric(5, 2) NOT NULL CHECK (percent >= 0 AND percent <= 10),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0 AND amount <= 1000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['invoice_payment', 'payable_payment', 'payment_tolerance']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
