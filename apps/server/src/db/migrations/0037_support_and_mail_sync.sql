-- Support requests and mail sync (issue 16 §1, §2; decision 028).
--
-- 1. support: requests written by a signed-in user or, without a session, by someone blocked at
--    sign-in (their e-mail only). Global tables (the superadmin queue spans every instance): the
--    sign-in role bilan_auth reads and writes all rows; bilan_app only the rows of its instance,
--    so that a request and its e-mail (outbound_message, per instance) are stored in one
--    transaction. Status: open → answered (a superadmin replied) → closed; a new message of the
--    user reopens it.
CREATE TABLE support_request (
  uuid uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The instance the request was written in (or the blocked user's instance); NULL when unknown.
  instance_id uuid REFERENCES instance (id) ON DELETE SET NULL,
  user_id uuid REFERENCES app_user (id) ON DELETE SET NULL,
  email text NOT NULL CHECK (email ~ '^[^@\s]+@[^@\s]+$' AND length(email) <= 254),
  subject text NOT NULL CHECK (length(btrim(subject)) BETWEEN 1 AND 200),
  message text NOT NULL CHECK (length(btrim(message)) BETWEEN 1 AND 10000),
  -- 'session' (signed in) or 'signin' (written from the sign-in pages, e.g. blocked by 2FA).
  origin text NOT NULL CHECK (origin IN ('session', 'signin')),
  attachment_name text CHECK (length(attachment_name) BETWEEN 1 AND 255),
  attachment_type text CHECK (length(attachment_type) BETWEEN 3 AND 255),
  attachment bytea CHECK (octet_length(attachment) <= 5242880),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((attachment IS NULL) = (attachment_name IS NULL) AND (attachment IS NULL) = (attachment_type IS NULL))
);
CREATE INDEX support_request_status_idx ON support_request (status, created_at DESC);
CREATE INDEX support_request_user_idx ON support_request (user_id, created_at DESC);

CREATE TABLE support_reply (
  request_uuid uuid NOT NULL REFERENCES support_request (uuid) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 1),
  -- Copied from the request, so the tenant policy needs no join.
  instance_id uuid REFERENCES instance (id) ON DELETE SET NULL,
  author_id uuid REFERENCES app_user (id) ON DELETE SET NULL,
  -- 'support' (a superadmin's answer) or 'user' (a follow-up of the requester).
  author_role text NOT NULL CHECK (author_role IN ('support', 'user')),
  message text NOT NULL CHECK (length(btrim(message)) BETWEEN 1 AND 10000),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (request_uuid, position)
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['support_request', 'support_reply']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I TO bilan_app USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('CREATE POLICY auth ON %I TO bilan_auth USING (true) WITH CHECK (true)', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE ON %I TO bilan_app, bilan_auth', t);
  END LOOP;
END $$;

-- Support e-mails (to the support address, replies to the user) go through the outbox.
ALTER TABLE outbound_message DROP CONSTRAINT outbound_message_kind_check;
ALTER TABLE outbound_message ADD CONSTRAINT outbound_message_kind_check CHECK (kind IN ('invoice', 'invitation', 'support'));

-- 2. mail sync (issue 16 §1): a user's IMAP mailbox polled by the job runner; each new message of
--    the chosen folder becomes a pending Mail of the inbox once (by UIDVALIDITY and UID). The app
--    password is kept encrypted (AES-256-GCM, key in server_secret 'mail-sync-aes256'), never answered.
CREATE TABLE mail_account (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email ~ '^[^@\s]+@[^@\s]+$' AND length(email) <= 254),
  host text NOT NULL CHECK (length(host) BETWEEN 1 AND 253),
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  tls boolean NOT NULL,
  username text NOT NULL CHECK (length(username) BETWEEN 1 AND 320),
  -- iv (12 bytes) || auth tag (16 bytes) || ciphertext; NULL after disconnect.
  password_encrypted bytea,
  folder text NOT NULL DEFAULT 'INBOX' CHECK (length(folder) BETWEEN 1 AND 200),
  processed_folder text CHECK (length(processed_folder) BETWEEN 1 AND 200),
  refused_folder text CHECK (length(refused_folder) BETWEEN 1 AND 200),
  uid_validity bigint,
  last_uid bigint NOT NULL DEFAULT 0,
  last_sync_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  disconnected_at timestamptz,
  PRIMARY KEY (instance_id, id)
);
CREATE UNIQUE INDEX mail_account_connected_idx ON mail_account (instance_id, user_id, email, host) WHERE disconnected_at IS NULL;

-- One row per message taken: the same UID of the same UIDVALIDITY is never taken twice.
CREATE TABLE mail_sync_message (
  instance_id uuid NOT NULL,
  account_id integer NOT NULL,
  uid_validity bigint NOT NULL,
  uid bigint NOT NULL,
  -- The Mail it became; NULL when refused (malformed, or imported before by Message-ID).
  mail_id integer,
  refused_reason text,
  taken_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, account_id, uid_validity, uid),
  FOREIGN KEY (instance_id, account_id) REFERENCES mail_account (instance_id, id) ON DELETE CASCADE
);

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['mail_account', 'mail_sync_message']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;

SELECT pgboss.create_queue('mail-sync', '{"policy": "standard", "retryLimit": 2, "retryDelay": 60, "retryBackoff": true, "expireInSeconds": 600, "retentionMinutes": 1440}');

-- The placeholder of 0012 (always empty: nothing could connect a mailbox) gives way to mail_account.
DROP TABLE mail_sync_account;
