-- Bilan foundation schema: tenancy, identity, sessions, ledger accounts, journal entries and the
-- invariants the database itself enforces (DESIGN.md "tenancy", "invariants").
--
-- Roles (cluster-wide, created once):
--   bilan_app  - every business query; sees only the rows of the instance set by
--                set_config('bilan.instance_id', ..., true) through row-level security.
--   bilan_auth - sign-in, sessions and instance lookup; sees the global tables only.
-- The migrating user owns the tables; neither role owns anything, so FORCE'd policies always apply.

DO $$
BEGIN
  CREATE ROLE bilan_app NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
DO $$
BEGIN
  CREATE ROLE bilan_auth NOLOGIN NOSUPERUSER NOBYPASSRLS;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

DO $$
BEGIN
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO bilan_app, bilan_auth', current_schema());
END $$;

-- The instance of the current transaction, NULL outside a tenant transaction.
CREATE FUNCTION app_instance_id() RETURNS uuid
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('bilan.instance_id', true), '')::uuid $$;

---------------------------------------------------------------------------------------------------
-- Global tables (no instance scope): users, identities, instances, memberships, sessions.
---------------------------------------------------------------------------------------------------

CREATE TABLE server_secret (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE app_user (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  first_name text NOT NULL DEFAULT '' CHECK (length(first_name) <= 100),
  last_name text NOT NULL DEFAULT '' CHECK (length(last_name) <= 100),
  is_superadmin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX app_user_email_key ON app_user (email);

-- One row per (provider, subject) an app_user has signed in with.
CREATE TABLE user_identity (
  provider text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, subject)
);
CREATE INDEX user_identity_user_idx ON user_identity (user_id);

CREATE TABLE instance (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100 AND name = btrim(name)),
  date_added timestamptz NOT NULL DEFAULT now(),
  currency_id smallint NOT NULL DEFAULT 1 CHECK (currency_id BETWEEN 1 AND 18),
  -- VAT rate as a fraction (spec §2.7: stored as a fraction, shown x100); 1 % to 99 % (spec §5).
  vat_rate numeric(7, 5) CHECK (vat_rate BETWEEN 0.01 AND 0.99),
  vat_number text,
  own_company_uuid uuid,
  -- Set when onboarding has finished (POST /api/instance/init/accounts).
  initialized_at timestamptz
);
CREATE UNIQUE INDEX instance_name_key ON instance (lower(name));

CREATE TABLE instance_member (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'accountant', 'viewer')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, user_id)
);
CREATE INDEX instance_member_user_idx ON instance_member (user_id);

-- A pending single sign-on: the PKCE verifier and nonce never leave the server (RFC 7636).
CREATE TABLE sso_login (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  provider text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  instance text NOT NULL,
  is_signup boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

-- Refresh-token sessions. Only a SHA-256 hash of the token is stored; each refresh rotates the
-- token inside its family, and re-use of a rotated token revokes the whole family.
CREATE TABLE auth_session (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  family_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  token_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  rotated_at timestamptz,
  revoked_at timestamptz,
  ip text,
  user_agent text
);
CREATE INDEX auth_session_family_idx ON auth_session (family_id);
CREATE INDEX auth_session_user_idx ON auth_session (user_id);

---------------------------------------------------------------------------------------------------
-- Tenant tables: each has instance_id, a FORCE'd row-level security policy (for every role, the
-- owner included), and
-- composite foreign keys (instance_id, ...) so a row can never point into another instance.
-- Numeric ids are allocated per instance (next_ids) so they reveal nothing about other instances.
---------------------------------------------------------------------------------------------------

CREATE TABLE instance_counter (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  kind text NOT NULL,
  last_id integer NOT NULL CHECK (last_id >= 0),
  PRIMARY KEY (instance_id, kind)
);

-- Reserves `n` consecutive ids of `kind` for an instance and returns the last one; the caller uses
-- last - n + 1 .. last. The row lock serialises writers of one instance and kind only.
CREATE FUNCTION next_ids(p_instance uuid, p_kind text, p_n integer DEFAULT 1) RETURNS integer
  LANGUAGE sql VOLATILE
  AS $$
    INSERT INTO instance_counter AS c (instance_id, kind, last_id) VALUES (p_instance, p_kind, p_n)
    ON CONFLICT (instance_id, kind) DO UPDATE SET last_id = c.last_id + excluded.last_id
    RETURNING last_id
  $$;

CREATE TABLE company (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  -- Swiss enterprise identification number (UID, eCH-0097), e.g. CHE-123.456.789.
  uid text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (instance_id, uuid)
);

CREATE TABLE address (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  company_uuid uuid NOT NULL,
  street text NOT NULL CHECK (length(btrim(street)) BETWEEN 1 AND 70),
  house_number text CHECK (length(house_number) <= 16),
  zip text NOT NULL CHECK (length(btrim(zip)) BETWEEN 1 AND 16),
  city text NOT NULL CHECK (length(btrim(city)) BETWEEN 1 AND 35),
  country_id smallint NOT NULL CHECK (country_id BETWEEN 1 AND 14),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid) ON DELETE CASCADE
);
CREATE INDEX address_company_idx ON address (instance_id, company_uuid);

ALTER TABLE instance ADD CONSTRAINT instance_own_company_fk
  FOREIGN KEY (id, own_company_uuid) REFERENCES company (instance_id, uuid) DEFERRABLE INITIALLY DEFERRED;

-- Chart of accounts groups (1-3 digit numbers: class, group, sub-group of the Swiss SME chart).
CREATE TABLE account_group (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  number text NOT NULL CHECK (number ~ '^[0-9]{1,3}$'),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, number)
);

CREATE TABLE ledger_account (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  number text NOT NULL CHECK (number ~ '^[0-9]{4,10}$'),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  currency_id smallint NOT NULL CHECK (currency_id BETWEEN 1 AND 18),
  -- AccountType: assets 1, liability 2, expenses 3, revenue 4, equity 5 (spec §3).
  type_id smallint NOT NULL CHECK (type_id BETWEEN 1 AND 5),
  -- AccountFunctionType: bankAccount 1, vat 2, salesRevenue 3, payable 4, receivable 5 (spec §3).
  function_type_id smallint CHECK (function_type_id BETWEEN 1 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, number)
);

CREATE TABLE payment_profile (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  company_uuid uuid NOT NULL,
  account_id integer,
  type_id smallint NOT NULL CHECK (type_id IN (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11)),
  iban text,
  bic text,
  banking_reference_number text,
  log_is_log boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid) ON DELETE CASCADE,
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id)
);
CREATE INDEX payment_profile_company_idx ON payment_profile (instance_id, company_uuid);

-- Accounting locks: nothing dated on or before the latest lock_date may change (spec §2.2 Lock).
CREATE TABLE accounting_lock (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY,
  lock_date date NOT NULL,
  end_entry_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid
);
CREATE INDEX accounting_lock_instance_idx ON accounting_lock (instance_id, lock_date DESC);

CREATE TABLE journal_entry (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  date_ledger date NOT NULL CHECK (date_ledger BETWEEN '1900-01-01' AND '2300-12-31'),
  description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  -- Where the entry came from: manual, import (with the file's entry key), and later invoice, bill...
  source text NOT NULL DEFAULT 'manual',
  source_ref text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  PRIMARY KEY (instance_id, id),
  -- Target of the lines' (instance_id, entry_id, date_ledger) foreign key, which keeps every line's
  -- date equal to its entry's date (ON UPDATE CASCADE) so balances can be kept per month.
  UNIQUE (instance_id, id, date_ledger)
);
CREATE INDEX journal_entry_date_idx ON journal_entry (instance_id, date_ledger, id);

-- A posting. `amount` is the absolute amount in the instance's base currency and `direction` says
-- debit (+1) or credit (-1) (spec §3); the original currency amount and rate are kept beside it.
CREATE TABLE journal_line (
  instance_id uuid NOT NULL,
  id integer NOT NULL,
  entry_id integer NOT NULL,
  date_ledger date NOT NULL,
  account_id integer NOT NULL,
  direction smallint NOT NULL CHECK (direction IN (1, -1)),
  amount numeric(20, 2) NOT NULL CHECK (amount >= 0),
  currency_id smallint NOT NULL CHECK (currency_id BETWEEN 1 AND 18),
  amount_original numeric(30, 10) NOT NULL CHECK (amount_original >= 0),
  exchange_rate numeric(24, 10) NOT NULL CHECK (exchange_rate > 0),
  description text CHECK (length(description) <= 500),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, entry_id, date_ledger) REFERENCES journal_entry (instance_id, id, date_ledger)
    ON UPDATE CASCADE ON DELETE CASCADE,
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id)
);
CREATE INDEX journal_line_entry_idx ON journal_line (instance_id, entry_id);
CREATE INDEX journal_line_account_idx ON journal_line (instance_id, account_id, date_ledger);
CREATE INDEX journal_line_date_idx ON journal_line (instance_id, date_ledger);

-- Debit and credit per account and calendar month, maintained in the posting's own transaction by
-- the statement triggers below, so balances at any date read a few hundred rows, not every line.
CREATE TABLE account_period_balance (
  instance_id uuid NOT NULL,
  account_id integer NOT NULL,
  period date NOT NULL CHECK (extract(day FROM period) = 1),
  debit numeric(22, 2) NOT NULL DEFAULT 0,
  credit numeric(22, 2) NOT NULL DEFAULT 0,
  PRIMARY KEY (instance_id, account_id, period),
  FOREIGN KEY (instance_id, account_id) REFERENCES ledger_account (instance_id, id) ON DELETE CASCADE
);

-- Page views (spec §2.10 "Page views are tracked on each route change").
CREATE TABLE action_log (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id bigint GENERATED ALWAYS AS IDENTITY,
  user_id uuid,
  url text NOT NULL CHECK (length(url) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id)
);

---------------------------------------------------------------------------------------------------
-- Invariant 1: no change on or before the lock date (rows of journal_entry and journal_line).
---------------------------------------------------------------------------------------------------

CREATE FUNCTION instance_lock_date(p_instance uuid) RETURNS date
  LANGUAGE sql STABLE
  AS $$ SELECT max(lock_date) FROM accounting_lock WHERE instance_id = p_instance $$;

-- Statement-level, so a bulk import of a million lines checks the lock once per statement.
CREATE FUNCTION journal_entries_check_lock() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
DECLARE
  bad record;
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT n.id, n.date_ledger, k.lock_date INTO bad
      FROM new_entries n JOIN accounting_lock k ON k.instance_id = n.instance_id AND n.date_ledger <= k.lock_date
      LIMIT 1;
  END IF;
  IF bad IS NULL AND TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT o.id, o.date_ledger, k.lock_date INTO bad
      FROM old_entries o JOIN accounting_lock k ON k.instance_id = o.instance_id AND o.date_ledger <= k.lock_date
      LIMIT 1;
  END IF;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % is dated % which is on or before the lock date %', bad.id, bad.date_ledger, bad.lock_date
      USING ERRCODE = 'BIL02';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_entry_lock_insert AFTER INSERT ON journal_entry
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_check_lock();
CREATE TRIGGER journal_entry_lock_update AFTER UPDATE ON journal_entry
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_check_lock();
CREATE TRIGGER journal_entry_lock_delete AFTER DELETE ON journal_entry
  REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_check_lock();

---------------------------------------------------------------------------------------------------
-- Invariant 2: every journal entry balances (sum of amount x direction = 0) with at least two
-- postings, checked at commit whatever code wrote the rows. Statement triggers note the touched
-- entries; one deferred constraint trigger per transaction checks them all in one query, so a bulk
-- import of a million lines costs one check, not a million.
---------------------------------------------------------------------------------------------------

CREATE UNLOGGED TABLE journal_check_pending (
  txid bigint NOT NULL,
  instance_id uuid NOT NULL,
  entry_id integer NOT NULL,
  PRIMARY KEY (txid, instance_id, entry_id)
);
CREATE UNLOGGED TABLE journal_check_armed (
  txid bigint PRIMARY KEY
);

CREATE FUNCTION journal_check_balance() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
DECLARE
  bad record;
BEGIN
  SELECT p.entry_id, coalesce(sum(l.amount * l.direction), 0) AS difference, count(l.id) AS postings
    INTO bad
    FROM journal_check_pending p
    JOIN journal_entry e ON e.instance_id = p.instance_id AND e.id = p.entry_id
    LEFT JOIN journal_line l ON l.instance_id = p.instance_id AND l.entry_id = p.entry_id
   WHERE p.txid = NEW.txid
   GROUP BY p.instance_id, p.entry_id
  HAVING coalesce(sum(l.amount * l.direction), 0) <> 0 OR count(l.id) < 2
   LIMIT 1;
  DELETE FROM journal_check_pending WHERE txid = NEW.txid;
  DELETE FROM journal_check_armed WHERE txid = NEW.txid;
  IF bad IS NOT NULL THEN
    IF bad.postings < 2 THEN
      RAISE EXCEPTION 'journal entry % needs at least two postings', bad.entry_id USING ERRCODE = 'BIL01';
    END IF;
    RAISE EXCEPTION 'journal entry % does not balance: debit minus credit is %', bad.entry_id, bad.difference
      USING ERRCODE = 'BIL01';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER journal_balance AFTER INSERT ON journal_check_armed
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_check_balance();

CREATE FUNCTION journal_entries_note() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
BEGIN
  INSERT INTO journal_check_pending (txid, instance_id, entry_id)
    SELECT DISTINCT txid_current(), instance_id, id FROM new_entries
    ON CONFLICT DO NOTHING;
  INSERT INTO journal_check_armed (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_entry_note AFTER INSERT ON journal_entry
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_note();

---------------------------------------------------------------------------------------------------
-- Per-month balances, lock check and balance bookkeeping for journal lines, set-based per statement.
---------------------------------------------------------------------------------------------------

CREATE FUNCTION journal_lines_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT
  AS $$
DECLARE
  bad record;
BEGIN
  -- Lock date.
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT n.entry_id, n.date_ledger, k.lock_date INTO bad
      FROM new_lines n JOIN accounting_lock k ON k.instance_id = n.instance_id AND n.date_ledger <= k.lock_date
      LIMIT 1;
  END IF;
  IF bad IS NULL AND TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT o.entry_id, o.date_ledger, k.lock_date INTO bad
      FROM old_lines o JOIN accounting_lock k ON k.instance_id = o.instance_id AND o.date_ledger <= k.lock_date
      LIMIT 1;
  END IF;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % is dated % which is on or before the lock date %', bad.entry_id, bad.date_ledger, bad.lock_date
      USING ERRCODE = 'BIL02';
  END IF;

  -- Month balances and entries to check at commit.
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO account_period_balance AS b (instance_id, account_id, period, debit, credit)
      SELECT instance_id, account_id, date_trunc('month', date_ledger)::date,
             -coalesce(sum(amount) FILTER (WHERE direction = 1), 0),
             -coalesce(sum(amount) FILTER (WHERE direction = -1), 0)
        FROM old_lines GROUP BY 1, 2, 3
      ON CONFLICT (instance_id, account_id, period)
      DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
    INSERT INTO journal_check_pending (txid, instance_id, entry_id)
      SELECT DISTINCT txid_current(), instance_id, entry_id FROM old_lines
      ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO account_period_balance AS b (instance_id, account_id, period, debit, credit)
      SELECT instance_id, account_id, date_trunc('month', date_ledger)::date,
             coalesce(sum(amount) FILTER (WHERE direction = 1), 0),
             coalesce(sum(amount) FILTER (WHERE direction = -1), 0)
        FROM new_lines GROUP BY 1, 2, 3
      ON CONFLICT (instance_id, account_id, period)
      DO UPDATE SET debit = b.debit + excluded.debit, credit = b.credit + excluded.credit;
    INSERT INTO journal_check_pending (txid, instance_id, entry_id)
      SELECT DISTINCT txid_current(), instance_id, entry_id FROM new_lines
      ON CONFLICT DO NOTHING;
  END IF;
  INSERT INTO journal_check_armed (txid) VALUES (txid_current()) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_line_insert AFTER INSERT ON journal_line
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_changed();
CREATE TRIGGER journal_line_update AFTER UPDATE ON journal_line
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_changed();
CREATE TRIGGER journal_line_delete AFTER DELETE ON journal_line
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_changed();

---------------------------------------------------------------------------------------------------
-- Row-level security and grants.
---------------------------------------------------------------------------------------------------

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['instance_counter', 'company', 'address', 'account_group', 'ledger_account',
    'payment_profile', 'accounting_lock', 'journal_entry', 'journal_line', 'account_period_balance', 'action_log']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;

-- The instance row: bilan_app sees and edits only its own; bilan_auth looks instances up by name
-- and creates them at sign-up.
ALTER TABLE instance ENABLE ROW LEVEL SECURITY;
ALTER TABLE instance FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON instance USING (id = app_instance_id()) WITH CHECK (id = app_instance_id());
CREATE POLICY auth ON instance TO bilan_auth USING (true) WITH CHECK (true);
GRANT SELECT, UPDATE ON instance TO bilan_app;
GRANT SELECT, INSERT ON instance TO bilan_auth;

ALTER TABLE instance_member ENABLE ROW LEVEL SECURITY;
ALTER TABLE instance_member FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON instance_member USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
CREATE POLICY auth ON instance_member TO bilan_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON instance_member TO bilan_app, bilan_auth;

-- Users: a tenant transaction sees only the members of its instance.
ALTER TABLE app_user ENABLE ROW LEVEL SECURITY;
ALTER TABLE app_user FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON app_user USING (
  EXISTS (SELECT 1 FROM instance_member m WHERE m.user_id = app_user.id AND m.instance_id = app_instance_id()));
CREATE POLICY auth ON app_user TO bilan_auth USING (true) WITH CHECK (true);

GRANT SELECT, INSERT, UPDATE ON app_user, user_identity, sso_login, auth_session TO bilan_auth;
GRANT SELECT ON app_user TO bilan_app;
GRANT UPDATE (first_name, last_name) ON app_user TO bilan_app;
GRANT SELECT, INSERT ON server_secret TO bilan_auth;

GRANT EXECUTE ON FUNCTION app_instance_id() TO bilan_app, bilan_auth;
GRANT EXECUTE ON FUNCTION next_ids(uuid, text, integer) TO bilan_app;
GRANT EXECUTE ON FUNCTION instance_lock_date(uuid) TO bilan_app;
