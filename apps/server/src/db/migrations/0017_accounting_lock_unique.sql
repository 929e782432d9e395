-- One lock per instance and date (issue 12 §1): creating the same lock twice, even in parallel,
-- leaves one row; the insert uses ON CONFLICT on this key. It also serves max(lock_date) of
-- instance_lock_date(), so the former non-unique index goes.
CREATE UNIQUE INDEX accounting_lock_instance_date_key ON accounting_lock (instance_id, lock_date);
DROP INDEX accounting_lock_instance_idx;
