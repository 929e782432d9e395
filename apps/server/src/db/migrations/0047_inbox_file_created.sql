-- The inbox files, newest first, paged by key (issue 18 §2, decision 036): `file/list` reads
-- (created_at, uuid) descending. Without this index every page sorted all files of the instance
-- (first 50 of 20,000 files: 18 ms, EXPLAIN ANALYZE on PostgreSQL); with it a page is one
-- backward index range (0.1 ms). Payment profiles need none: their pages walk the primary key.
CREATE INDEX inbox_file_created_idx ON inbox_file (instance_id, created_at, uuid);
