-- The company list paged by key (issue 18 §2, decision 036): `company/list` by name reads
-- (lower(name), uuid), by date added (created_at, uuid), the uuid making each key unique.
--
-- By name, the old index (instance_id, lower(name)) could not take the cursor's condition: under
-- row-level security a clause is an index condition only when its functions are leakproof
-- (decision 033), and lower() is not. So a page after a cursor in the middle of 5,000 companies
-- read the 2,500 rows before it through a filter (2 ms; descending 5 ms, EXPLAIN ANALYZE as
-- bilan_app on PostgreSQL). The lower-cased name is now a stored column, compared with the
-- leakproof text and uuid operators: every page is one index range (first or 100th alike).
ALTER TABLE company ADD COLUMN name_key text GENERATED ALWAYS AS (lower(name)) STORED;
CREATE INDEX company_name_key_idx ON company (instance_id, name_key, uuid);
DROP INDEX company_name_idx;

-- By date added, one index range instead of a sort of the instance's companies. UID and the city
-- of the first address stay a top-N sort (a few ms at 5,000 companies).
CREATE INDEX company_created_idx ON company (instance_id, created_at, uuid);
