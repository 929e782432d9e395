-- Identity hardening (issue #3 audit): server-side idle and absolute session limits, and the
-- synced mail accounts of the profile (spec §2.6, §7.1 GET /profile/mail-sync).

-- Every row of a session family carries the family's start and its last known user activity, so
-- the live row alone answers "too old?" and "idle too long?" (ASVS 5 V7.3.1, V7.3.2). A rotation
-- copies both forward; the web reports activity with its 8-minute refresh.
ALTER TABLE auth_session ADD COLUMN IF NOT EXISTS family_started_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE auth_session ADD COLUMN IF NOT EXISTS last_active_at timestamptz NOT NULL DEFAULT now();
UPDATE auth_session s
   SET family_started_at = f.started_at, last_active_at = s.created_at
  FROM (SELECT family_id, min(created_at) AS started_at FROM auth_session GROUP BY family_id) f
 WHERE f.family_id = s.family_id;

-- Mail accounts a user synchronises into an instance's inbox (spec §2.6 "Mail Sync lists synced
-- mail accounts"). Empty until mail synchronisation exists; the profile lists the user's own rows.
CREATE TABLE mail_sync_account (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  user_id uuid NOT NULL REFERENCES app_user (id) ON DELETE CASCADE,
  email text NOT NULL CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%' AND length(email) <= 254),
  provider text NOT NULL DEFAULT 'imap' CHECK (length(provider) BETWEEN 1 AND 32),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_synced_at timestamptz,
  PRIMARY KEY (instance_id, id),
  UNIQUE (instance_id, user_id, email)
);
ALTER TABLE mail_sync_account ENABLE ROW LEVEL SECURITY;
ALTER TABLE mail_sync_account FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON mail_sync_account USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON mail_sync_account TO bilan_app;
