-- Year-end closing (issue 12 §3, decision 015): the instance's accounting settings and the
-- fiscal-year closings. Both tables are the accounting module's (src/db/ownership.ts).

-- One row per instance, written on the first settings change or closing; an absent row means the
-- defaults: calendar fiscal year (starts in January) and the chart's 2979 "Jahresgewinn oder
-- -verlust" as profit-or-loss account (created as an equity account by the first closing if the
-- chart lacks it). Closing, reopening and settings changes lock this row first, so they run one
-- after the other per instance.
CREATE TABLE accounting_settings (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  -- 1 = January (calendar year); 7 = a fiscal year July to June.
  fiscal_year_start_month smallint NOT NULL DEFAULT 1 CHECK (fiscal_year_start_month BETWEEN 1 AND 12),
  -- NULL: the chart's account 2979.
  profit_loss_account_id integer,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  FOREIGN KEY (instance_id, profit_loss_account_id) REFERENCES ledger_account (instance_id, id)
);

-- A closing of one fiscal year. `fiscal_year` is the calendar year in which the fiscal year starts
-- (2025 = 2025-01-01…2025-12-31, or 2025-07-01…2026-06-30 with a July start). Reopening keeps the
-- row as history (status 'reopened', with the reversal entry) and frees the year's lock; closing
-- again adds a new row.
CREATE TABLE fiscal_year_closing (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  fiscal_year integer NOT NULL CHECK (fiscal_year BETWEEN 1900 AND 2300),
  date_from date NOT NULL,
  date_to date NOT NULL,
  status text NOT NULL CHECK (status IN ('closed', 'reopened')),
  -- The one closing entry (source 'closing'); NULL when the year had nothing to move.
  closing_entry_id integer,
  -- The reversal posted by reopening (decision 015); NULL while closed.
  reversal_entry_id integer,
  profit_loss_account_id integer NOT NULL,
  -- The year's result in the books' currency: revenue − expenses, positive for a profit.
  result numeric(22, 2) NOT NULL,
  -- The lock the closing set at date_to; NULL once reopened (the lock is gone). The foreign key
  -- keeps a closed year's lock from being deleted by anything but reopening.
  lock_uuid uuid REFERENCES accounting_lock (uuid),
  -- Failed checks acknowledged at closing: [{ "key": "…", "name": "…", "detail": "…", "note": "…" }].
  acknowledgements jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(acknowledgements) = 'array'),
  closed_at timestamptz NOT NULL DEFAULT now(),
  closed_by uuid,
  reopened_at timestamptz,
  reopened_by uuid,
  CHECK (date_from <= date_to),
  CHECK ((status = 'closed') = (reopened_at IS NULL)),
  CHECK (status = 'reopened' OR lock_uuid IS NOT NULL),
  FOREIGN KEY (instance_id, closing_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, reversal_entry_id) REFERENCES journal_entry (instance_id, id),
  FOREIGN KEY (instance_id, profit_loss_account_id) REFERENCES ledger_account (instance_id, id)
);
-- At most one active closing per fiscal year: parallel identical closes leave one row.
CREATE UNIQUE INDEX fiscal_year_closing_active_key ON fiscal_year_closing (instance_id, fiscal_year) WHERE status = 'closed';
CREATE INDEX fiscal_year_closing_instance_idx ON fiscal_year_closing (instance_id, fiscal_year, closed_at);
CREATE INDEX fiscal_year_closing_lock_idx ON fiscal_year_closing (lock_uuid) WHERE lock_uuid IS NOT NULL;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounting_settings', 'fiscal_year_closing']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
  END LOOP;
END $$;
GRANT SELECT, INSERT, UPDATE ON accounting_settings, fiscal_year_closing TO bilan_app;
