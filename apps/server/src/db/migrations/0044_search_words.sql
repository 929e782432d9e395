-- The search (decision 033) through indexes that row-level security lets the planner use. Under RLS
-- a clause becomes an index condition only when its functions are LEAKPROOF: ILIKE (texticlike)
-- and numeric equality are not, so trigram (pg_trgm) and numeric amount indexes are never read and
-- every search would scan the tables (measured: decision 033). Integer, uuid and text comparisons
-- are leakproof, so amounts are matched as integer cents and text as prefix ranges over words.

-- Amounts: integer cents beside the numeric amounts. NULL from 10^16 up: such cents would not fit
-- a bigint, and the search reads at most 15 integer digits.
ALTER TABLE journal_line ADD COLUMN amount_cents bigint
  GENERATED ALWAYS AS (CASE WHEN amount < 10000000000000000 THEN (amount * 100)::bigint END) STORED;
ALTER TABLE payable ADD COLUMN amount_cents bigint
  GENERATED ALWAYS AS (CASE WHEN amount < 10000000000000000 THEN (amount * 100)::bigint END) STORED;
CREATE INDEX journal_line_amount_cents_idx ON journal_line (instance_id, amount_cents);
CREATE INDEX payable_amount_cents_idx ON payable (instance_id, amount_cents);

-- The words of a text as the search reads them, for the documents and for the typed query alike
-- (the server asks this function rather than splitting in TypeScript, so both sides lower-case and
-- split the same way whatever the database's locale): lower-cased, split on anything but letters
-- and digits, 2 or more characters, each once.
CREATE FUNCTION search_words(body text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$
    SELECT coalesce(array_agg(DISTINCT w ORDER BY w), '{}')
      FROM regexp_split_to_table(lower(body), '[^[:alnum:]]+') AS w
     WHERE length(w) >= 2
  $$;

-- What a document's words table holds: every suffix of 2 or more characters of each word (the same
-- split as search_words), so that a typed word found by prefix among them is found anywhere inside
-- a word ("patronen" finds "Druckerpatronen", as the ILIKE search did for German compounds). A
-- suffix may come more than once: the callers drop repeats in bulk (DISTINCT, ON CONFLICT), which
-- costs far less than a DISTINCT per document. Neither STRICT nor DISTINCT, so the planner inlines
-- it into the calling query.
CREATE FUNCTION search_word_suffixes(body text) RETURNS SETOF text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT substr(w, i) FROM regexp_split_to_table(lower(body), '[^[:alnum:]]+') AS w, generate_series(1, length(w) - 1) AS i
  $$;

-- One words table per searched table, owned by the table's module. COLLATE "C" orders the words
-- by code point, so `word >= p AND word < p'` (leakproof text_ge, text_lt) is exactly "starts
-- with p" and an index range. The primary key serves the cascade from the document and the check
-- of one document's words; the (word, document) index the search itself, index-only.
CREATE TABLE journal_entry_word (
  instance_id uuid NOT NULL,
  entry_id integer NOT NULL,
  word text COLLATE "C" NOT NULL
);
CREATE TABLE invoice_word (
  instance_id uuid NOT NULL,
  invoice_id integer NOT NULL,
  word text COLLATE "C" NOT NULL
);
CREATE TABLE payable_word (
  instance_id uuid NOT NULL,
  payable_id integer NOT NULL,
  word text COLLATE "C" NOT NULL
);

-- The existing documents' words, read and written as the owner with the tables' RLS not forced for
-- the length of this transaction (as 0032 did); keys and indexes after the rows, which is faster
-- than keeping them row by row.
ALTER TABLE journal_entry NO FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice NO FORCE ROW LEVEL SECURITY;
ALTER TABLE payable NO FORCE ROW LEVEL SECURITY;
INSERT INTO journal_entry_word (instance_id, entry_id, word)
  SELECT DISTINCT e.instance_id, e.id, s.word FROM journal_entry e CROSS JOIN LATERAL search_word_suffixes(e.description) AS s(word);
INSERT INTO invoice_word (instance_id, invoice_id, word)
  SELECT DISTINCT i.instance_id, i.id, s.word FROM invoice i CROSS JOIN LATERAL search_word_suffixes(i.description) AS s(word);
INSERT INTO payable_word (instance_id, payable_id, word)
  SELECT DISTINCT p.instance_id, p.id, s.word FROM payable p CROSS JOIN LATERAL search_word_suffixes(p.description) AS s(word);

ALTER TABLE journal_entry_word ADD PRIMARY KEY (instance_id, entry_id, word),
  ADD FOREIGN KEY (instance_id, entry_id) REFERENCES journal_entry (instance_id, id) ON DELETE CASCADE;
ALTER TABLE invoice_word ADD PRIMARY KEY (instance_id, invoice_id, word),
  ADD FOREIGN KEY (instance_id, invoice_id) REFERENCES invoice (instance_id, id) ON DELETE CASCADE;
ALTER TABLE payable_word ADD PRIMARY KEY (instance_id, payable_id, word),
  ADD FOREIGN KEY (instance_id, payable_id) REFERENCES payable (instance_id, id) ON DELETE CASCADE;
CREATE INDEX journal_entry_word_idx ON journal_entry_word (instance_id, word, entry_id);
CREATE INDEX invoice_word_idx ON invoice_word (instance_id, word, invoice_id);
CREATE INDEX payable_word_idx ON payable_word (instance_id, word, payable_id);
-- Newest first, as the search lists them: for a common word the planner walks the documents by
-- date and checks each one's words (as journal_entry_date_idx of 0001 lets it for entries) instead
-- of joining every match.
CREATE INDEX invoice_date_idx ON invoice (instance_id, date_invoice, id);
CREATE INDEX payable_date_idx ON payable (instance_id, date, id);

ALTER TABLE journal_entry FORCE ROW LEVEL SECURITY;
ALTER TABLE invoice FORCE ROW LEVEL SECURITY;
ALTER TABLE payable FORCE ROW LEVEL SECURITY;

-- The triggers run as the writing role (bilan_app): the words carry the document's instance_id,
-- which the tenant policy accepts because the document itself passed it. Inserts are handled per
-- statement (one INSERT … SELECT for a bulk load), a changed description per row and only when it
-- changed; deletes cascade through the foreign key. No UPDATE grant: words are replaced, never edited.
CREATE FUNCTION journal_entry_word_insert() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    INSERT INTO journal_entry_word (instance_id, entry_id, word)
      SELECT n.instance_id, n.id, s.word FROM added n CROSS JOIN LATERAL search_word_suffixes(n.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE FUNCTION journal_entry_word_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    DELETE FROM journal_entry_word WHERE instance_id = OLD.instance_id AND entry_id = OLD.id;
    INSERT INTO journal_entry_word (instance_id, entry_id, word)
      SELECT NEW.instance_id, NEW.id, s.word FROM search_word_suffixes(NEW.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER journal_entry_word_insert AFTER INSERT ON journal_entry
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION journal_entry_word_insert();
CREATE TRIGGER journal_entry_word_update AFTER UPDATE OF description ON journal_entry
  FOR EACH ROW WHEN (OLD.description IS DISTINCT FROM NEW.description) EXECUTE FUNCTION journal_entry_word_update();

CREATE FUNCTION invoice_word_insert() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    INSERT INTO invoice_word (instance_id, invoice_id, word)
      SELECT n.instance_id, n.id, s.word FROM added n CROSS JOIN LATERAL search_word_suffixes(n.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE FUNCTION invoice_word_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    DELETE FROM invoice_word WHERE instance_id = OLD.instance_id AND invoice_id = OLD.id;
    INSERT INTO invoice_word (instance_id, invoice_id, word)
      SELECT NEW.instance_id, NEW.id, s.word FROM search_word_suffixes(NEW.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER invoice_word_insert AFTER INSERT ON invoice
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION invoice_word_insert();
CREATE TRIGGER invoice_word_update AFTER UPDATE OF description ON invoice
  FOR EACH ROW WHEN (OLD.description IS DISTINCT FROM NEW.description) EXECUTE FUNCTION invoice_word_update();

CREATE FUNCTION payable_word_insert() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    INSERT INTO payable_word (instance_id, payable_id, word)
      SELECT n.instance_id, n.id, s.word FROM added n CROSS JOIN LATERAL search_word_suffixes(n.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE FUNCTION payable_word_update() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
  BEGIN
    DELETE FROM payable_word WHERE instance_id = OLD.instance_id AND payable_id = OLD.id;
    INSERT INTO payable_word (instance_id, payable_id, word)
      SELECT NEW.instance_id, NEW.id, s.word FROM search_word_suffixes(NEW.description) AS s(word)
      ON CONFLICT DO NOTHING;
    RETURN NULL;
  END
  $$;
CREATE TRIGGER payable_word_insert AFTER INSERT ON payable
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION payable_word_insert();
CREATE TRIGGER payable_word_update AFTER UPDATE OF description ON payable
  FOR EACH ROW WHEN (OLD.description IS DISTINCT FROM NEW.description) EXECUTE FUNCTION payable_word_update();

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['journal_entry_word', 'invoice_word', 'payable_word']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant ON %I USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id())', t);
    EXECUTE format('GRANT SELECT, INSERT, DELETE ON %I TO bilan_app', t);
  END LOOP;
END $$;
