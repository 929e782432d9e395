-- Salary import (issue 16 §3, decision 026): the wage-type → ledger account mapping of each
-- instance and the imported payroll journals. Tenant tables as in 0001: instance_id, FORCE'd RLS.
-- Account numbers, not ids: the mapping speaks the payroll software's language (its export names
-- accounts by number) and the import checks every number against the chart when it runs.

-- One wage type (Lohnart) of the payroll software: the posting of one row of that type, debit
-- account / credit account. A side left null comes from the file's own debit/credit column.
-- is_net_pay marks the net salary (Nettolohn/Auszahlung): with claims chosen, its rows become
-- claims owed to the employee (payables) instead of postings of the salary entry.
CREATE TABLE salary_wage_type (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 40),
  name text NOT NULL DEFAULT '' CHECK (length(name) <= 200),
  debit_account text CHECK (length(debit_account) BETWEEN 1 AND 20),
  credit_account text CHECK (length(credit_account) BETWEEN 1 AND 20),
  is_net_pay boolean NOT NULL DEFAULT false,
  PRIMARY KEY (instance_id, code)
);

-- One posted payroll journal file. sha256 of the file plus the chosen options: the same import
-- posted twice (a double click, two tabs) books once — the second insert waits on the unique key
-- and then finds it taken.
CREATE TABLE salary_import (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  file_name text NOT NULL DEFAULT '' CHECK (length(file_name) <= 200),
  group_by text NOT NULL CHECK (group_by IN ('period', 'employee')),
  net_claims boolean NOT NULL,
  entry_ids integer[] NOT NULL DEFAULT '{}',
  payable_uuids uuid[] NOT NULL DEFAULT '{}',
  period_from text NOT NULL,
  period_to text NOT NULL,
  total_gross numeric(20, 2) NOT NULL DEFAULT 0,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, sha256)
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['salary_wage_type', 'salary_import']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;

-- Payables: the ISO 20022 category purpose of a payment (ExternalCategoryPurpose1Code). 'SALA'
-- marks a net salary owed to an employee, so the pain.001 puts it in a block of its own with
-- PmtTpInf/CtgyPurp SALA (SPS IG pain.001 2022 §3.2: the bank keeps salary payments confidential).
ALTER TABLE payable ADD COLUMN category_purpose text CHECK (category_purpose IN ('SALA'));
