-- Idempotency keys (issue #11 §1, decision 013): the first answer to a write POST that carries an
-- `Idempotency-Key` header, kept per instance and key for 24 hours and replayed for a repeat.
-- A row without a status is a claim: its request is still running (a repeat answers 409).
CREATE TABLE idempotency_key (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  -- 1–255 printable ASCII characters (the HTTP layer refuses others with 400 first).
  key text NOT NULL CHECK (key ~ '^[ -~]{1,255}$'),
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  -- SHA-256 (hex) of method, URL and canonical body: a repeat must carry the same request.
  fingerprint text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
  status_code smallint CHECK (status_code BETWEEN 200 AND 499),
  response_body jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, key),
  CHECK ((status_code IS NULL) = (response_body IS NULL))
);
-- The opportunistic clean-up of keys older than 24 hours looks them up by age.
CREATE INDEX idempotency_key_created ON idempotency_key (instance_id, created_at);
ALTER TABLE idempotency_key ENABLE ROW LEVEL SECURITY;
ALTER TABLE idempotency_key FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON idempotency_key USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON idempotency_key TO bilan_app;
