-- One job runner, outgoing mail and customer contacts (issue 15 §1 and §5, decision 023).
--
-- 1. jobs: the pg-boss 10.4 job queue (schema version 24) in its own schema `pgboss`, created here
--    rather than by pg-boss at start-up, so that production's runtime role needs no CREATE right and
--    both engines (PGlite, PostgreSQL) get the same schema from the same migration history. The
--    statements below are `PgBoss.getConstructionPlans('pgboss')` of pg-boss 10.4.2 without its
--    BEGIN/COMMIT and advisory lock (the migration runner runs each file in one transaction). An
--    upgrade of pg-boss puts its `getMigrationPlans` into a new migration; the server starts
--    pg-boss with `migrate: false` and refuses to start on a schema version it does not expect.
--    Queues are schema too (each is a partition of pgboss.job, which only the owner may attach):
--    a new queue is a `SELECT pgboss.create_queue(...)` in a migration.

    
    CREATE SCHEMA IF NOT EXISTS pgboss
  ;

    CREATE TYPE pgboss.job_state AS ENUM (
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed'
    )
  ;

    CREATE TABLE pgboss.version (
      version int primary key,
      maintained_on timestamp with time zone,
      cron_on timestamp with time zone,
      monitored_on timestamp with time zone
    )
  ;

    CREATE TABLE pgboss.queue (
      name text,
      policy text,
      retry_limit int,
      retry_delay int,
      retry_backoff bool,
      expire_seconds int,
      retention_minutes int,
      dead_letter text REFERENCES pgboss.queue (name),
      partition_name text,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.schedule (
      name text REFERENCES pgboss.queue ON DELETE CASCADE,
      cron text not null,
      timezone text,
      data jsonb,
      options jsonb,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE pgboss.subscription (
      event text not null,
      name text not null REFERENCES pgboss.queue ON DELETE CASCADE,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY(event, name)
    )
  ;

    CREATE TABLE pgboss.job (
      id uuid not null default gen_random_uuid(),
      name text not null,
      priority integer not null default(0),
      data jsonb,
      state pgboss.job_state not null default('created'),
      retry_limit integer not null default(2),
      retry_count integer not null default(0),
      retry_delay integer not null default(0),
      retry_backoff boolean not null default false,
      start_after timestamp with time zone not null default now(),
      started_on timestamp with time zone,
      singleton_key text,
      singleton_on timestamp without time zone,
      expire_in interval not null default interval '15 minutes',
      created_on timestamp with time zone not null default now(),
      completed_on timestamp with time zone,
      keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
      output jsonb,
      dead_letter text,
      policy text
    ) PARTITION BY LIST (name)
  ;
ALTER TABLE pgboss.job ADD PRIMARY KEY (name, id);
CREATE TABLE pgboss.archive (LIKE pgboss.job);
ALTER TABLE pgboss.archive ADD PRIMARY KEY (name, id);
ALTER TABLE pgboss.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
CREATE INDEX archive_i1 ON pgboss.archive(archived_on);

    CREATE FUNCTION pgboss.create_queue(queue_name text, options json)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
      queue_created_on timestamptz;
    BEGIN

      WITH q as (
      INSERT INTO pgboss.queue (
        name,
        policy,
        retry_limit,
        retry_delay,
        retry_backoff,
        expire_seconds,
        retention_minutes,
        dead_letter,
        partition_name
      )
      VALUES (
        queue_name,
        options->>'policy',
        (options->>'retryLimit')::int,
        (options->>'retryDelay')::int,
        (options->>'retryBackoff')::bool,
        (options->>'expireInSeconds')::int,
        (options->>'retentionMinutes')::int,
        options->>'deadLetter',
        table_name
      )
      ON CONFLICT DO NOTHING
      RETURNING created_on
      )
      SELECT created_on into queue_created_on from q;

      IF queue_created_on IS NULL THEN
        RETURN;
      END IF;

      EXECUTE format('CREATE TABLE pgboss.%I (LIKE pgboss.job INCLUDING DEFAULTS)', table_name);

      EXECUTE format('ALTER TABLE pgboss.%1$I ADD PRIMARY KEY (name, id)', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('ALTER TABLE pgboss.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES pgboss.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON pgboss.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON pgboss.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON pgboss.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
      EXECUTE format('CREATE INDEX %1$s_i5 ON pgboss.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

      EXECUTE format('ALTER TABLE pgboss.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
      EXECUTE format('ALTER TABLE pgboss.job ATTACH PARTITION pgboss.%I FOR VALUES IN (%L)', table_name, queue_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;

    CREATE FUNCTION pgboss.delete_queue(queue_name text)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar;
    BEGIN
      WITH deleted as (
        DELETE FROM pgboss.queue
        WHERE name = queue_name
        RETURNING partition_name
      )
      SELECT partition_name from deleted INTO table_name;

      EXECUTE format('DROP TABLE IF EXISTS pgboss.%I', table_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;
INSERT INTO pgboss.version(version) VALUES ('24');

-- Mail delivery (messaging): retried 5 times with exponential backoff from 60 s (pg-boss: retry n
-- after 60 × 2^(n-1) × (1 + random) s, i.e. 1–2, 2–4, 4–8, 8–16, 16–32 min: a mail server that is
-- down for half an hour still gets the message); a delivery still
-- active after 5 minutes is taken as crashed and runs again; finished jobs kept 14 days.
SELECT pgboss.create_queue('mail-delivery', '{"policy": "standard", "retryLimit": 5, "retryDelay": 60, "retryBackoff": true, "expireInSeconds": 300, "retentionMinutes": 20160}');

-- The runner (fetch, complete, fail, maintenance) runs as bilan_auth, the role of the global
-- tables; tenant transactions (bilan_app) may only add a job, so a message and its delivery job
-- are written in one transaction. Privileges on the partitioned pgboss.job cover its partitions.
GRANT USAGE ON SCHEMA pgboss TO bilan_app, bilan_auth;
GRANT SELECT, INSERT, UPDATE, DELETE ON pgboss.job, pgboss.archive, pgboss.version, pgboss.queue, pgboss.schedule, pgboss.subscription TO bilan_auth;
GRANT SELECT ON pgboss.queue TO bilan_app;
GRANT INSERT, SELECT (id) ON pgboss.job TO bilan_app;

-- 2. messaging: every outgoing e-mail is stored before anything is sent (issue 15 §1). Status:
--    queued (a delivery job is waiting), sending (a runner has claimed it), sent (the server's
--    answer kept), failed (the server's answer kept; retried by the job runner until its retries
--    are used up), not_sent (no mail server configured: BILAN_SMTP_URL unset).
CREATE TABLE outbound_message (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  uuid uuid NOT NULL DEFAULT gen_random_uuid(),
  -- What the message is about: 'invoice' (uuid of the invoice), 'invitation' (id of the invitation).
  kind text NOT NULL CHECK (kind IN ('invoice', 'invitation')),
  document_ref text,
  from_address text NOT NULL CHECK (length(from_address) BETWEEN 3 AND 320),
  to_addresses text[] NOT NULL CHECK (cardinality(to_addresses) BETWEEN 1 AND 50),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 998),
  body_text text NOT NULL CHECK (length(body_text) <= 100000),
  status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'not_sent')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- The SMTP server's last answer: '250 2.0.0 Ok: queued as …' when sent, the refusal when failed.
  server_response text,
  -- The RFC 5322 Message-ID given by the mail library on success.
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  PRIMARY KEY (instance_id, id),
  UNIQUE (uuid),
  CHECK ((status = 'sent') = (sent_at IS NOT NULL))
);
CREATE INDEX outbound_message_document_idx ON outbound_message (instance_id, kind, document_ref);
CREATE INDEX outbound_message_created_idx ON outbound_message (instance_id, created_at DESC);

CREATE TABLE outbound_attachment (
  instance_id uuid NOT NULL,
  message_id integer NOT NULL,
  position smallint NOT NULL CHECK (position BETWEEN 1 AND 20),
  filename text NOT NULL CHECK (length(filename) BETWEEN 1 AND 255),
  content_type text NOT NULL CHECK (length(content_type) BETWEEN 3 AND 255),
  content bytea NOT NULL CHECK (octet_length(content) <= 10485760),
  PRIMARY KEY (instance_id, message_id, position),
  FOREIGN KEY (instance_id, message_id) REFERENCES outbound_message (instance_id, id) ON DELETE CASCADE
);

-- The invoice e-mail per language, editable per instance; no row = the built-in default text.
CREATE TABLE message_template (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('invoice')),
  lang text NOT NULL CHECK (lang IN ('de', 'fr', 'it', 'en')),
  subject text NOT NULL CHECK (length(btrim(subject)) BETWEEN 1 AND 200),
  body text NOT NULL CHECK (length(btrim(body)) BETWEEN 1 AND 10000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  PRIMARY KEY (instance_id, kind, lang)
);

-- 3. companies: the people of a customer who receive its invoices, with the invoice language and
--    payment terms the invoice form takes as defaults (issue 15 §1).
CREATE TABLE company_contact (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  company_uuid uuid NOT NULL,
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  email text NOT NULL CHECK (email ~ '^[^@\s]+@[^@\s]+$' AND length(email) <= 254),
  lang text NOT NULL DEFAULT 'de' CHECK (lang IN ('de', 'fr', 'it', 'en')),
  payment_terms_days smallint CHECK (payment_terms_days BETWEEN 0 AND 365),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid) ON DELETE CASCADE
);
CREATE INDEX company_contact_company_idx ON company_contact (instance_id, company_uuid);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['outbound_message', 'outbound_attachment', 'message_template', 'company_contact']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
