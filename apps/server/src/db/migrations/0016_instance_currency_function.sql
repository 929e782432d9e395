-- The books' currency as the instances module's interface to the database (issue 11 §3: one owner
-- per table). Accounting sits below instances in the module order, yet every posting needs the
-- instance's currency in the same statement as the lock date and the accounts; it asks through this
-- function instead of naming the instance table, as the lock triggers ask accounting's
-- instance_lock_date(). SECURITY INVOKER (the default): row-level security still applies, so a
-- transaction sees only its own instance's currency, and NULL for any other.
CREATE FUNCTION instance_currency_id(p_instance uuid) RETURNS smallint
  LANGUAGE sql STABLE
  AS $$ SELECT currency_id FROM instance WHERE id = p_instance $$;
