-- Bank reconciliation against the books (issue 14, docs/decisions/022): a bank line is reconciled
-- to one or more postings on its bank ledger account (ones it booked itself or ones already in the
-- books), or ignored with a reason; a statement knows its IBAN and opening balance; camt.052 is read.

-- The statement's own account and opening booked balance (OPBD), for the gap to the previous one.
ALTER TABLE bank_file ADD COLUMN iban text CHECK (length(iban) <= 42);
ALTER TABLE bank_file ADD COLUMN opening_balance numeric(20, 2);
ALTER TABLE bank_file ADD COLUMN opening_date date;
ALTER TABLE bank_file DROP CONSTRAINT bank_file_kind_check;
ALTER TABLE bank_file ADD CONSTRAINT bank_file_kind_check CHECK (kind IN ('camt.052', 'camt.053', 'camt.054', 'pain.002'));

-- What a line is: a payment (a camt transaction) or the bank's charges on an entry (entry amount
-- minus its transactions); a reversal (RvslInd) of an earlier credit or debit.
ALTER TABLE bank_transaction ADD COLUMN kind text NOT NULL DEFAULT 'payment' CHECK (kind IN ('payment', 'charges'));
ALTER TABLE bank_transaction ADD COLUMN reversal boolean NOT NULL DEFAULT false;
-- The reconciliation the line belongs to (several lines may share one: many-to-one); NULL: open.
ALTER TABLE bank_transaction ADD COLUMN match_id integer;
-- Ignored by a person, with why (e.g. an internal transfer booked elsewhere). Not also matched.
ALTER TABLE bank_transaction ADD COLUMN ignored_reason text CHECK (length(btrim(ignored_reason)) BETWEEN 1 AND 500);
ALTER TABLE bank_transaction ADD CONSTRAINT bank_transaction_ignored_or_matched CHECK (ignored_reason IS NULL OR match_id IS NULL);
CREATE INDEX bank_transaction_match_idx ON bank_transaction (instance_id, match_id) WHERE match_id IS NOT NULL;
CREATE INDEX bank_transaction_e2e_idx ON bank_transaction (instance_id, account_id, end_to_end_id) WHERE end_to_end_id IS NOT NULL;
CREATE INDEX bank_transaction_reference_idx ON bank_transaction (instance_id, account_id, reference) WHERE reference IS NOT NULL;
CREATE INDEX bank_transaction_file_idx ON bank_transaction (instance_id, bank_file_id);

-- The postings (journal lines on the bank ledger account) of a reconciliation. The primary key makes
-- a posting reconciled at most once, whatever the code path (issue 14 §1). `booked`: the
-- reconciliation posted this line's entry itself (unmatching it reverses that entry).
CREATE TABLE bank_match_posting (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  journal_line_id integer NOT NULL,
  match_id integer NOT NULL,
  entry_id integer NOT NULL,
  booked boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, journal_line_id)
);
CREATE INDEX bank_match_posting_match_idx ON bank_match_posting (instance_id, match_id);

ALTER TABLE bank_match_posting ENABLE ROW LEVEL SECURITY;
ALTER TABLE bank_match_posting FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON bank_match_posting USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON bank_match_posting TO bilan_app;

-- A line of a statement (camt.052/053) is reconciled against postings; a camt.054 line is a
-- notification: it may book a document's payment, but the statement line of the same money is what
-- claims the posting.
ALTER TABLE bank_transaction ADD COLUMN statement boolean NOT NULL DEFAULT false;
UPDATE bank_transaction t SET statement = true FROM bank_file f WHERE f.instance_id = t.instance_id AND f.id = t.bank_file_id AND f.kind = 'camt.053';
-- Lines matched or booked before this migration count as reconciled, with no postings claimed
-- (negative ids never meet the ids next_ids hands out).
UPDATE bank_transaction SET match_id = -id WHERE entry_id IS NOT NULL OR matched_payable_id IS NOT NULL OR matched_invoice_uuid IS NOT NULL;

-- Banking settings of an instance (issue 14 §3): the ledger account bank charges are booked to;
-- no row: 6940 Bankspesen of the Swiss SME chart (created on first use).
CREATE TABLE bank_settings (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  charges_account_id integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (instance_id, charges_account_id) REFERENCES ledger_account (instance_id, id)
);
ALTER TABLE bank_settings ENABLE ROW LEVEL SECURITY;
ALTER TABLE bank_settings FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON bank_settings USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON bank_settings TO bilan_app;
