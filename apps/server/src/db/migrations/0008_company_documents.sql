-- Postings of a company's documents (issue #4 §1: a company with invoices, bills or postings cannot
-- be deleted). Journal entries name their source document in (source, source_ref); this index finds
-- the entries of invoices, bills, bill payments and bank bookings. Partial, so manual entries and
-- bulk imports (source_ref = the file's entry key) pay nothing for it.
CREATE INDEX IF NOT EXISTS journal_entry_document_idx ON journal_entry (instance_id, source, source_ref)
  WHERE source IN ('invoice', 'bill', 'payment', 'bank');
