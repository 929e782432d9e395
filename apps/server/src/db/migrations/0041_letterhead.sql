-- Letterhead of an instance (issue 15 §6): an optional logo and a contact block (phone, e-mail,
-- website) printed on its invoices, quotes, credit notes and reminders. One row per instance,
-- owned by the instances module. The logo is kept in the database (PNG or JPEG, at most 512 KiB,
-- checked by the service): documents render from one transaction, with no file store to back up.
CREATE TABLE instance_letterhead (
  instance_id uuid PRIMARY KEY REFERENCES instance (id) ON DELETE CASCADE,
  logo bytea CHECK (logo IS NULL OR octet_length(logo) <= 524288),
  logo_type text CHECK (logo_type IN ('image/png', 'image/jpeg')),
  phone text NOT NULL DEFAULT '' CHECK (length(phone) <= 40),
  email text NOT NULL DEFAULT '' CHECK (length(email) <= 200),
  website text NOT NULL DEFAULT '' CHECK (length(website) <= 200),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((logo IS NULL) = (logo_type IS NULL))
);

ALTER TABLE instance_letterhead ENABLE ROW LEVEL SECURITY;
ALTER TABLE instance_letterhead FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON instance_letterhead USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON instance_letterhead TO bilan_app;
