-- Published read views (decision 037, issue 18 §2): what a module lets the others read of its
-- tables, by name and column, so a list page can take its rows and its parties' names in one
-- statement instead of one round trip per module. The owner keeps its tables to itself and keeps
-- these columns stable; other modules may join a view, never the table behind it (db/ownership.ts,
-- test/architecture/ownership.test.ts). security_invoker: the caller's row security applies, so a
-- view shows exactly the rows of the instance the transaction entered, as the table would.

-- companies: a counterparty's name, its addresses, its payment profiles (archived ones included:
-- documents keep theirs).
CREATE VIEW company_head WITH (security_invoker = true) AS
  SELECT instance_id, uuid, name FROM company;
CREATE VIEW address_head WITH (security_invoker = true) AS
  SELECT instance_id, id, company_uuid, street, house_number, zip, city, country_id FROM address;
CREATE VIEW payment_profile_head WITH (security_invoker = true) AS
  SELECT instance_id, id, company_uuid, type_id, iban, bic, account_id, log_is_log AS archived FROM payment_profile;

-- accounting: a ledger account's number and name.
CREATE VIEW ledger_account_head WITH (security_invoker = true) AS
  SELECT instance_id, id, number, name FROM ledger_account;

-- instances: the books' currency.
CREATE VIEW instance_books WITH (security_invoker = true) AS
  SELECT id AS instance_id, currency_id FROM instance;

GRANT SELECT ON company_head, address_head, payment_profile_head, ledger_account_head, instance_books TO bilan_app;
