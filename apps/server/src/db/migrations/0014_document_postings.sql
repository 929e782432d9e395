-- Document postings belong to their document (issue 11 §2): an entry posted by an invoice, bill,
-- payment, bank line (any source other than 'manual' and 'import', so later sources such as
-- 'closing' are covered without a migration) is changed only through its document. The accounting
-- module's `withDocumentPostingWrite` (modules/accounting/document-posting.ts) sets the
-- transaction-local flag `bilan.document_posting` around such writes; any other UPDATE or DELETE
-- of these rows, and any INSERT of lines into such an entry after the statement that created it,
-- is refused with SQLSTATE BIL03 (http/errors.ts maps it to 409 document_posting).
--
-- Statement-level AFTER triggers, as the lock and balance triggers of 0001: one check per
-- statement, whatever the number of rows. They only read, so they run as the caller (row security
-- applies) and leave the per-month balances and the deferred balance check of 0001 untouched.
-- `bad` selects only non-null columns: a row with a null field is neither NULL nor NOT NULL.
-- Rows removed by a cascade (an instance deleted, an entry's lines going with it) are checked at
-- the statement that started the cascade: the guards let trigger-nested statements pass.

CREATE FUNCTION is_document_source(p_source text) RETURNS boolean
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT p_source NOT IN ('manual', 'import') $$;

CREATE FUNCTION document_posting_write_allowed() RETURNS boolean
  LANGUAGE sql STABLE
  AS $$ SELECT coalesce(current_setting('bilan.document_posting', true), '') = 'on' OR pg_trigger_depth() > 1 $$;

CREATE FUNCTION journal_entries_guard_documents() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  bad record;
BEGIN
  IF document_posting_write_allowed() THEN
    RETURN NULL;
  END IF;
  SELECT o.id, o.source, coalesce(o.source_ref, '') AS source_ref INTO bad FROM old_entries o WHERE is_document_source(o.source) LIMIT 1;
  -- An UPDATE may not turn an entry into a document posting either (source or source_ref changed).
  IF bad IS NULL AND TG_OP = 'UPDATE' THEN
    SELECT n.id, n.source, coalesce(n.source_ref, '') AS source_ref INTO bad FROM new_entries n WHERE is_document_source(n.source) LIMIT 1;
  END IF;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % was posted by % %: change it through its document', bad.id, bad.source, bad.source_ref
      USING ERRCODE = 'BIL03';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_entry_document_update AFTER UPDATE ON journal_entry
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_guard_documents();
CREATE TRIGGER journal_entry_document_delete AFTER DELETE ON journal_entry
  REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_guard_documents();

CREATE FUNCTION journal_lines_guard_documents() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  bad record;
BEGIN
  IF document_posting_write_allowed() THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT e.id, e.source, coalesce(e.source_ref, '') AS source_ref INTO bad
      FROM (SELECT DISTINCT instance_id, entry_id FROM old_lines) o
      JOIN journal_entry e ON e.instance_id = o.instance_id AND e.id = o.entry_id
     WHERE is_document_source(e.source)
     LIMIT 1;
  END IF;
  -- New lines (inserted, or moved by an UPDATE) may join a document entry only in the statement
  -- that created it (postJournalEntry writes entry and lines in one statement): same transaction
  -- id and command id on both rows.
  IF bad IS NULL AND TG_OP IN ('INSERT', 'UPDATE') THEN
    WITH documents AS MATERIALIZED (
      SELECT n.instance_id, n.id AS line_id, e.id, e.source, e.source_ref, e.xmin AS entry_xmin, e.cmin AS entry_cmin
        FROM new_lines n JOIN journal_entry e ON e.instance_id = n.instance_id AND e.id = n.entry_id
       WHERE is_document_source(e.source))
    SELECT d.id, d.source, coalesce(d.source_ref, '') AS source_ref INTO bad
      FROM documents d JOIN journal_line l ON l.instance_id = d.instance_id AND l.id = d.line_id
     WHERE TG_OP = 'UPDATE' OR NOT (l.xmin = d.entry_xmin AND l.cmin = d.entry_cmin)
     LIMIT 1;
  END IF;
  IF bad IS NOT NULL THEN
    RAISE EXCEPTION 'journal entry % was posted by % %: change it through its document', bad.id, bad.source, bad.source_ref
      USING ERRCODE = 'BIL03';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_line_document_insert AFTER INSERT ON journal_line
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_guard_documents();
CREATE TRIGGER journal_line_document_update AFTER UPDATE ON journal_line
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_guard_documents();
CREATE TRIGGER journal_line_document_delete AFTER DELETE ON journal_line
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION journal_lines_guard_documents();
