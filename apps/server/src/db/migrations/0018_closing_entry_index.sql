-- Year-end closing entries (issue 12 §3) carry source 'closing'. Income statements and analytics
-- of a period leave them out (otherwise a closed year shows a result of zero); this partial index
-- finds the few closing entries of a date range without scanning a million journal entries.
CREATE INDEX journal_entry_closing_idx ON journal_entry (instance_id, date_ledger) WHERE source = 'closing';
