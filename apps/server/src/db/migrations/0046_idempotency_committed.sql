-- A keyed write marks its claim in its own transaction (issue 18 §5, decision 013 addendum): a claim
-- without an answer whose write committed must never run again, even after the 10 minutes that
-- make an uncommitted claim abandoned — a server that died between the write's COMMIT and storing
-- the answer left exactly that, and the retry booked a second time.
ALTER TABLE idempotency_key ADD COLUMN committed_at timestamptz;
