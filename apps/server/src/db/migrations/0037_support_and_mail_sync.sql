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
