-- Identity and security (issue #3): two-factor (TOTP), pending second-factor sign-ins, account
-- blocking, passkeys (WebAuthn), staff invitations, and what the superadmin Logs page reads.
-- Secrets (TOTP seeds, passkey keys, challenges) live in global tables granted to bilan_auth only:
-- a tenant transaction (bilan_app) can never read them.

-- Too many wrong second-factor codes block the account until a superadmin unblocks it (spec §8).
ALTER TABLE app_user ADD COLUMN IF NOT EXISTS failed_second_factor integer NOT NULL DEFAULT 0 CHECK (failed_second_factor >= 0);
ALTER TABLE app_user ADD COLUMN IF NOT EXISTS blocked_at timestamptz;

-- TOTP (RFC 6238). `secret` is base32; `enabled_at` NULL while a proposed secret awaits its first
-- valid code. `last_step` is the last accepted time step: a code is accepted once only.
CREATE TABLE user_totp (
  user_id uuid PRIMARY KEY REFERENCES app_user (id) ON DELETE CASCADE,
  secret text NOT NULL CHECK (secret ~ '^[A-Z2-7]{16,128}$'),
  enabled_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A sign-in that passed the first factor and waits for the second (the `payload` of spec §7.2).
-- Only the SHA-256 of the payload is stored.
CREATE TABLE second_factor_login (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash bytea NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  method text NOT NULL CHECK (length(method) BETWEEN 1 AND 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX second_factor_login_user_idx ON second_factor_login (user_id);

-- Passkeys (WebAuthn L3). `id` is the base64url credential id; `counter` the last signature counter.
CREATE TABLE webauthn_credential (
  id text PRIMARY KEY CHECK (length(id) BETWEEN 16 AND 1400),
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  public_key bytea NOT NULL,
  counter bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports text[] NOT NULL DEFAULT '{}',
  device_type text,
  backed_up boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX webauthn_credential_user_idx ON webauthn_credential (user_id);

-- WebAuthn challenges: single use (consumed_at) and short-lived (expires_at).
CREATE TABLE webauthn_challenge (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  challenge text NOT NULL,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  instance_id uuid REFERENCES instance (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);

GRANT SELECT, INSERT, UPDATE, DELETE ON user_totp, second_factor_login, webauthn_credential, webauthn_challenge TO bilan_auth;
GRANT DELETE ON auth_session TO bilan_auth;

-- Staff invitations (tenant table): accepted at the invitee's next sign-in with that e-mail.
CREATE TABLE instance_invitation (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  email text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%' AND length(email) <= 254),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'accountant', 'viewer')),
  invited_by uuid REFERENCES app_user (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  accepted_by uuid REFERENCES app_user (id) ON DELETE SET NULL,
  PRIMARY KEY (instance_id, id)
);
CREATE UNIQUE INDEX instance_invitation_open_key ON instance_invitation (instance_id, email) WHERE accepted_at IS NULL;
CREATE INDEX instance_invitation_email_idx ON instance_invitation (email) WHERE accepted_at IS NULL;

ALTER TABLE instance_invitation ENABLE ROW LEVEL SECURITY;
ALTER TABLE instance_invitation FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON instance_invitation USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
-- Sign-in (bilan_auth) accepts the open invitations of the signing-in e-mail, in any instance.
CREATE POLICY auth ON instance_invitation TO bilan_auth USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE, DELETE ON instance_invitation TO bilan_app;
GRANT SELECT, UPDATE ON instance_invitation TO bilan_auth;

-- The superadmin Logs page reads the action log of every instance through bilan_auth.
CREATE POLICY auth ON action_log TO bilan_auth USING (true);
GRANT SELECT ON action_log TO bilan_auth;
