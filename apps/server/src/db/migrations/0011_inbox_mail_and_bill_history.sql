-- Inbox mails read from uploaded .eml files, and the status history of bills (issue #5 §1–2).

-- A mail parsed from an uploaded .eml keeps its Message-ID (so the same mail uploaded twice is
-- recognised, 409) and its original bytes (the voucher as received; attachments become inbox files).
ALTER TABLE mail ADD COLUMN message_id text CHECK (length(message_id) <= 998);
ALTER TABLE mail ADD COLUMN raw bytea;
CREATE UNIQUE INDEX mail_message_id_key ON mail (instance_id, message_id) WHERE message_id IS NOT NULL;
CREATE INDEX inbox_file_mail_idx ON inbox_file (instance_id, mail_id);
CREATE INDEX inbox_file_payable_idx ON inbox_file (instance_id, payable_id);

-- Every status a bill has had, written by a trigger so that each code path that changes a bill
-- (form, transaction groups, bank files, reconciliation) is recorded without having to remember it.
-- The entries linked at that moment are kept, so the bill page can show what each step booked.
CREATE TABLE payable_status_event (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  -- Internal order only; never exposed (ids visible to users are per instance, 0001).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  payable_id integer NOT NULL,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  from_status smallint,
  status smallint NOT NULL,
  transaction_group_id integer,
  booking_entry_id integer,
  payment_entry_id integer,
  PRIMARY KEY (instance_id, seq),
  FOREIGN KEY (instance_id, payable_id) REFERENCES payable (instance_id, id) ON DELETE CASCADE
);
CREATE INDEX payable_status_event_payable_idx ON payable_status_event (instance_id, payable_id, seq);

CREATE FUNCTION payable_status_event_record() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
    INSERT INTO payable_status_event (instance_id, payable_id, from_status, status, transaction_group_id, booking_entry_id, payment_entry_id)
    VALUES (NEW.instance_id, NEW.id, CASE WHEN TG_OP = 'UPDATE' THEN OLD.status END, NEW.status, NEW.transaction_group_id,
            NEW.booking_entry_id, NEW.payment_entry_id);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER payable_status_event_record AFTER INSERT OR UPDATE OF status ON payable
  FOR EACH ROW EXECUTE FUNCTION payable_status_event_record();

-- Bills that exist already start their history with their present status.
INSERT INTO payable_status_event (instance_id, payable_id, at, status, transaction_group_id, booking_entry_id, payment_entry_id)
SELECT instance_id, id, created_at, status, transaction_group_id, booking_entry_id, payment_entry_id FROM payable;

ALTER TABLE payable_status_event ENABLE ROW LEVEL SECURITY;
ALTER TABLE payable_status_event FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON payable_status_event USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT ON payable_status_event TO bilan_app;
