-- The lists' free-text filters through index reads (issue 18 §2, decision 033 addendum): under
-- row-level security ILIKE is not leakproof, so an ILIKE over invoices, bills or entries read
-- every row in the filter's range. The words tables of 0044 now serve the descriptions; this
-- migration adds what the other fields need.

-- The journal finds an entry by its import key (source_ref, e.g. the key of a row of an imported
-- file) as one branch of a union of index reads. journal_entry_document_idx of 0008 holds the
-- documents' keys only (invoice, bill, payment, bank), so without this index that branch read
-- every entry of the instance (500,000 in bench:lists).
CREATE INDEX journal_entry_source_ref_idx ON journal_entry (instance_id, source_ref) WHERE source_ref IS NOT NULL;

-- companies publishes the lower-cased name (0049's stored name_key) beside the name, so that the
-- invoice and bill lists match a customer's or supplier's name with LIKE on it: over the instance's
-- 5,000 companies (bench:lists) 0.5 ms against 2 ms for ILIKE on the name, which lower-cases every
-- name again on each row. Lower-cased by the database's lower(), as the typed words are
-- (search_words), so both sides agree whatever the locale. A column added at the end: the view's
-- other columns stay as they were (decision 037).
CREATE OR REPLACE VIEW company_head WITH (security_invoker = true) AS
  SELECT instance_id, uuid, name, name_key FROM company;
