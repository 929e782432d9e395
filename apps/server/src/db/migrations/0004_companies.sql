-- Companies (issue #4 §1–2): contact data of a company, its additional properties, and the
-- archive time of payment profiles. Builds on company, address and payment_profile of 0001.

-- Last change of the company record (general data page).
ALTER TABLE company ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now();
-- Zefix register id (EHRA-ID) when the company was taken from the commercial register (spec §2.9).
ALTER TABLE company ADD COLUMN IF NOT EXISTS register_id bigint;
CREATE INDEX IF NOT EXISTS company_name_idx ON company (instance_id, lower(name));

-- When a payment profile was archived (logIsLog, spec §3): kept for history, hidden in lists.
ALTER TABLE payment_profile ADD COLUMN IF NOT EXISTS archived_at timestamptz;

-- A typed value attached to a company (spec §3 "Additional property", AdditionalPropertyType
-- Text 1 … InternalLink 9). The value is stored as text in its canonical form; the service
-- validates it by type (Amount a decimal string, Date YYYY-MM-DD, …).
CREATE TABLE additional_property (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  id integer NOT NULL,
  company_uuid uuid NOT NULL,
  type_id smallint NOT NULL CHECK (type_id BETWEEN 1 AND 9),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 100),
  value text NOT NULL CHECK (length(value) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, id),
  FOREIGN KEY (instance_id, company_uuid) REFERENCES company (instance_id, uuid) ON DELETE CASCADE
);
CREATE INDEX additional_property_company_idx ON additional_property (instance_id, company_uuid);

ALTER TABLE additional_property ENABLE ROW LEVEL SECURITY;
ALTER TABLE additional_property FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON additional_property USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON additional_property TO bilan_app;
