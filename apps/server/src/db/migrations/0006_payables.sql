-- Payables and banking (issue #5): bills and expenses, transaction groups (grouped bank payments),
-- bank files (pain.002 status reports, camt.053/054 statements) and the bank transactions read from
-- them. Tenant tables as in 0001: instance_id, FORCE'd RLS, composite foreign keys, per-instance ids.

-- Transaction group: bills paid together with one pain.001 file (spec §3 "Transaction group").
-- status (spec §4): pending 1, paid 2, denied 3, initiated 4.
-- bank_status (spec §4 "Bank payment status"): pending 1, paid 2, pain002Accp 3, pain002Rjctd 4, pain002Part 5.
CREATE TABLE transaction_group (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3, 4)),
  bank_status smallint NOT NULL DEFAULT 1 CHECK (bank_status BETWEEN 1 AND 5),
  -- The paying bank account: a ledger account (function bankAccount) and its IBAN/BIC at creation.
  debtor_account_id integer NOT NULL,
  debtor_iban text NOT NULL,
  debtor_bic text,
  debtor_name text NOT NULL,
  execution_date date NOT NULL CHECK (execution_date BETWEEN '1900-01-01' AND '2300-12-31'),
  paid_date date,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  FOREIGN KEY (instance_id, debtor_account_id) REFERENCES ledger_account (instance_id, id)
);

-- Payable (bill) or expense (spec §3 "Payable", BillType payable 0 / expense 1).
-- status: pending 1, approved 2, inTransactionGroup 3, paid 4, cancelled 5 (docs/api.md "Payables").
CREATE TABLE payable (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  type_id smallint NOT NULL DEFAULT 0 CHECK (type_id IN (0, 1)),
  company_uuid uuid,
  payment_profile_id integer,
  date date NOT NULL CHECK (date BETWEEN '1900-01-01' AND '2300-12-31'),
  due_date date CHECK (due_date BETWEEN '1900-01-01' AND '2300-12-31'),
  -- Gross amount in `currency_id`; vat_amount is the input VAT included in it.
  amount numeric(20, 2) NOT NULL CHECK (amount > 0),
  vat_amount numeric(20, 2) NOT NULL DEFAULT 0 CHECK (vat_amount >= 0 AND vat_amount <= amount),
  currency_id smallint NOT NULL CHECK (currency_id BETWEEN 1 AND 18),
  -- Instance-currency units per unit of currency_id (1 for the instance currency).
  exchange_rate numeric(24, 10) NOT NULL DEFAULT 1 CHECK (exchange_rate > 0),
  expense_account_id integer,
  reference_number text CHECK (length(reference_number) <= 40),
  message text CHECK (length(message) <= 140),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  status smallint NOT NULL DEFAULT 1 CHECK (status BETWEEN 1 AND 5),
  transaction_group_id integer,
  -- pain.002 per transaction: accepted / rejected with the ISO reason code (e.g. AC01).
  bank_tx_status text CHECK (bank_tx_status IN ('accepted', 'rejected', 'pending')),
  bank_reason text CHECK (length(bank_reason) <= 200),
  booking_entry_id integer,
  payment_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, uuid),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid),
  FOREIGN KEY (instance_id, payment_profile_id) REFERENCES payment_profile (instance_id, id),
  FOREIGN KEY (instance_id, expense_account_id) REFERENCES ledger_account (instance_id, id),
  FOREIGN KEY (instance_id, transaction_group_id) REFERENCES transaction_group (instance_id, id),
  -- In a group (3) needs the group; only bills in a group or paid through one keep the link.
  CHECK (status <> 3 OR transaction_group_id IS NOT NULL),
  CHECK (status IN (3, 4) OR transaction_group_id IS NULL),
  -- A bill of the payable type has a supplier; an expense (staff reimbursement) may have none.
  CHECK (type_id = 1 OR company_uuid IS NOT NULL)
);
CREATE INDEX payable_status_idx ON payable (instance_id, status, date);
CREATE INDEX payable_company_idx ON payable (instance_id, company_uuid);
CREATE INDEX payable_group_idx ON payable (instance_id, transaction_group_id);

-- One imported bank file (camt.053, camt.054, pain.002). The file's own message id is unique per
-- instance and kind, so re-importing the same file is recognised.
CREATE TABLE bank_file (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  kind text NOT NULL CHECK (kind IN ('camt.053', 'camt.054', 'pain.002')),
  message_id text NOT NULL CHECK (length(message_id) BETWEEN 1 AND 200),
  sha256 text NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  imported_by uuid,
  -- camt.053: the statement's closing booked balance (CLBD) of the bank ledger account, signed.
  account_id integer,
  closing_balance numeric(20, 2),
  closing_date date,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, sha256),
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id)
);

-- A booked bank transaction (camt entry or entry detail), per bank ledger account. `dedup_key` is
-- the bank's reference (AcctSvcrRef) or, without one, a digest of date, amount, direction and
-- references: the unique constraint makes a re-import add nothing and book nothing twice.
CREATE TABLE bank_transaction (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  account_id integer NOT NULL,
  bank_file_id integer NOT NULL,
  dedup_key text NOT NULL CHECK (length(dedup_key) BETWEEN 1 AND 300),
  booking_date date NOT NULL,
  value_date date,
  -- +1 credit to our account (money in), -1 debit (money out), as camt CdtDbtInd says.
  direction smallint NOT NULL CHECK (direction IN (1, -1)),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  reference text,
  end_to_end_id text,
  counterparty text,
  description text,
  matched_payable_id integer,
  matched_invoice_uuid uuid,
  entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, account_id, dedup_key),
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id),
  FOREIGN KEY (instance_id, bank_file_id) REFERENCES bank_file (instance_id, id) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, matched_payable_id) REFERENCES payable (instance_id, id)
);
CREATE INDEX bank_transaction_account_idx ON bank_transaction (instance_id, account_id, booking_date);

-- Inbox files (spec §3 "File"), stored in the database so every app server sees them.
CREATE TABLE inbox_file (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  mime_type text NOT NULL CHECK (length(mime_type) <= 100),
  size integer NOT NULL CHECK (size >= 0),
  content bytea NOT NULL,
  payable_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, uuid),
  FOREIGN KEY (instance_id, payable_id) REFERENCES payable (instance_id, id) ON DELETE SET NULL
);

-- Mails of the inbox (spec §3 "Mail", §4 Mail status: pending 1, processed 2, refused 3); their
-- attachments are inbox files.
CREATE TABLE mail (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  status smallint NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3)),
  sender text NOT NULL CHECK (length(sender) BETWEEN 1 AND 320),
  subject text NOT NULL DEFAULT '' CHECK (length(subject) <= 500),
  body text NOT NULL DEFAULT '' CHECK (length(body) <= 100000),
  received_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id)
);
ALTER TABLE inbox_file ADD COLUMN mail_id integer;
ALTER TABLE inbox_file ADD FOREIGN KEY (instance_id, mail_id) REFERENCES mail (instance_id, id) ON DELETE SET NULL;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['transaction_group', 'payable', 'bank_file', 'bank_transaction', 'inbox_file', 'mail']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
