-- Audit trail of security events (issue #3 §5): sign-ins and their failures, 2FA and passkey
-- changes, role changes, instance switches. Global: a failed sign-in may have no instance yet.
CREATE TABLE audit_event (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  event text NOT NULL CHECK (event ~ '^[a-z0-9_.]{1,64}$'),
  user_id uuid REFERENCES app_user (id) ON DELETE SET NULL,
  instance_id uuid REFERENCES instance (id) ON DELETE SET NULL,
  ip text,
  user_agent text,
  detail jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_event_time_idx ON audit_event (occurred_at DESC);
CREATE INDEX audit_event_user_idx ON audit_event (user_id, occurred_at DESC);

ALTER TABLE audit_event ENABLE ROW LEVEL SECURITY;
ALTER TABLE audit_event FORCE ROW LEVEL SECURITY;
-- A tenant transaction records and reads its own instance's events; sign-in work (bilan_auth)
-- records anything and reads everything (the superadmin Logs page reads through it).
CREATE POLICY tenant ON audit_event USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
CREATE POLICY auth ON audit_event TO bilan_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT ON audit_event TO bilan_app, bilan_auth;
