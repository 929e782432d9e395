-- VAT codes as data and VAT on every posting (issue 13 §1–2, decision 019).
--
-- vat_code: the Steuercodes of an instance (Swiss seed below). A code has a kind, a rate *type*
-- (the percentage follows the supply date: vat_rate_percent), the account its tax goes to, whether
-- amounts are entered gross or net, and its Ziffern on the return (those in force since 2024; older
-- supplies map 303 → 302 → 301 …, packages/domain vatZifferAt). Owned by accounting.
--
-- journal_line gets the VAT of each posting, so the return is computed from postings alone:
--   vat_code     the code (FK; a code is never renamed)
--   vat_role     'base' (the entered account, net of tax), 'tax' (the code's VAT account) or
--                'deduction' (the input-tax half of an acquisition tax)
--   vat_percent  the rate applied, in percent (8.100, 7.700, 0.000)
--   vat_base     the base, signed for the return: positive when the base posting runs in the code's
--                normal direction (sales: credit; input, acquisition, reduction: debit)
--   vat_amount   the tax, signed the same way
-- A base line's |vat_base| is its amount; a tax or deduction line's |vat_amount| is its amount. The
-- return sums vat_base over base lines and vat_amount over tax and deduction lines (decision 019).

CREATE TABLE vat_code (
  instance_id uuid NOT NULL REFERENCES instance (id) ON DELETE CASCADE,
  code text NOT NULL CHECK (code ~ '^[A-Z0-9][A-Z0-9_-]{0,11}$'),
  name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('sales', 'input', 'acquisition', 'exempt', 'reduction', 'outside')),
  rate_type text NOT NULL CHECK (rate_type IN ('standard', 'reduced', 'accommodation', 'zero')),
  account_number text CHECK (account_number ~ '^[0-9]{4,10}$'),
  deduction_account_number text CHECK (deduction_account_number ~ '^[0-9]{4,10}$'),
  default_entry text NOT NULL CHECK (default_entry IN ('gross', 'net')),
  ziffer_base text CHECK (ziffer_base ~ '^[0-9]{3}$'),
  ziffer_tax text CHECK (ziffer_tax ~ '^[0-9]{3}$'),
  ziffer_deduction text CHECK (ziffer_deduction ~ '^[0-9]{3}$'),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (instance_id, code),
  -- Tax needs a rate and an account to go to; exempt and outside supplies carry none.
  CONSTRAINT vat_code_zero_kinds CHECK ((rate_type = 'zero') = (kind IN ('exempt', 'outside'))),
  CONSTRAINT vat_code_tax_account CHECK ((rate_type = 'zero') = (account_number IS NULL)),
  -- An acquisition tax posts its deduction too, and is entered net (the price carries no Swiss VAT).
  CONSTRAINT vat_code_acquisition CHECK (
    (kind = 'acquisition') = (deduction_account_number IS NOT NULL)
    AND (kind = 'acquisition') = (ziffer_deduction IS NOT NULL)
    AND (kind <> 'acquisition' OR default_entry = 'net'))
);

ALTER TABLE vat_code ENABLE ROW LEVEL SECURITY;
ALTER TABLE vat_code FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant ON vat_code USING (instance_id = app_instance_id()) WITH CHECK (instance_id = app_instance_id());
GRANT SELECT, INSERT, UPDATE, DELETE ON vat_code TO bilan_app;

ALTER TABLE journal_line
  ADD COLUMN vat_code text,
  ADD COLUMN vat_role text,
  ADD COLUMN vat_percent numeric(6, 3),
  ADD COLUMN vat_base numeric(20, 2),
  ADD COLUMN vat_amount numeric(20, 2),
  ADD CONSTRAINT journal_line_vat_code_fk FOREIGN KEY (instance_id, vat_code) REFERENCES vat_code (instance_id, code),
  -- All five or none.
  ADD CONSTRAINT journal_line_vat_complete CHECK (
    (vat_code IS NULL AND vat_role IS NULL AND vat_percent IS NULL AND vat_base IS NULL AND vat_amount IS NULL)
    OR (vat_code IS NOT NULL AND vat_role IS NOT NULL AND vat_percent IS NOT NULL AND vat_base IS NOT NULL AND vat_amount IS NOT NULL)),
  ADD CONSTRAINT journal_line_vat_role CHECK (vat_role IN ('base', 'tax', 'deduction')),
  ADD CONSTRAINT journal_line_vat_percent CHECK (vat_percent >= 0 AND vat_percent < 100),
  -- A base line is its base; a tax line is its tax, at a rate above 0.
  ADD CONSTRAINT journal_line_vat_base_line CHECK (vat_role <> 'base' OR abs(vat_base) = amount),
  ADD CONSTRAINT journal_line_vat_tax_line CHECK (vat_role = 'base' OR (abs(vat_amount) = amount AND vat_percent > 0));

-- The return of a period: coded postings by date (a partial index; most postings carry no code),
-- with what it sums, so a year of a million lines is read from the index alone.
CREATE INDEX journal_line_vat_idx ON journal_line (instance_id, date_ledger, vat_code)
  INCLUDE (vat_role, vat_percent, vat_base, vat_amount) WHERE vat_code IS NOT NULL;
-- Whether a code is used (the code list, the refusal to delete a used code, the foreign key's check).
CREATE INDEX journal_line_vat_code_idx ON journal_line (instance_id, vat_code) WHERE vat_code IS NOT NULL;

-- The percentage of a rate type for a supply on p_date (packages/domain VAT_RATE_PERIODS, kept
-- equal by a test): 8.1/2.6/3.8 from 2024, 7.7/2.5/3.7 from 2018, 8.0/2.5/3.8 from 2011, 7.6/2.4/3.6 before.
CREATE FUNCTION vat_rate_percent(p_type text, p_date date) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT CASE
      WHEN p_type = 'zero' THEN 0::numeric
      WHEN p_date >= '2024-01-01' THEN CASE p_type WHEN 'standard' THEN 8.1 WHEN 'reduced' THEN 2.6 WHEN 'accommodation' THEN 3.8 END
      WHEN p_date >= '2018-01-01' THEN CASE p_type WHEN 'standard' THEN 7.7 WHEN 'reduced' THEN 2.5 WHEN 'accommodation' THEN 3.7 END
      WHEN p_date >= '2011-01-01' THEN CASE p_type WHEN 'standard' THEN 8.0 WHEN 'reduced' THEN 2.5 WHEN 'accommodation' THEN 3.8 END
      ELSE CASE p_type WHEN 'standard' THEN 7.6 WHEN 'reduced' THEN 2.4 WHEN 'accommodation' THEN 3.6 END
    END
  $$;

-- The Swiss seed (packages/domain SWISS_VAT_CODES, kept equal by a test). Codes that exist are left
-- as they are, so seeding twice, or after the user changed a code, changes nothing.
CREATE FUNCTION seed_vat_codes(p_instance uuid) RETURNS integer
  LANGUAGE sql VOLATILE
  AS $$
    WITH seeded AS (
      INSERT INTO vat_code (instance_id, code, name, kind, rate_type, account_number, deduction_account_number, default_entry,
                            ziffer_base, ziffer_tax, ziffer_deduction)
      SELECT p_instance, s.* FROM (VALUES
        ('V81', 'Sales, standard rate', 'sales', 'standard', '2200', NULL, 'gross', '303', '303', NULL),
        ('V26', 'Sales, reduced rate', 'sales', 'reduced', '2201', NULL, 'gross', '313', '313', NULL),
        ('V38', 'Sales, accommodation rate', 'sales', 'accommodation', '2202', NULL, 'gross', '343', '343', NULL),
        ('X0', 'Exports and exempt supplies (art. 23)', 'exempt', 'zero', NULL, NULL, 'gross', '220', NULL, NULL),
        ('A0', 'Supplies provided abroad', 'exempt', 'zero', NULL, NULL, 'gross', '221', NULL, NULL),
        ('E0', 'Supplies exempt without credit (art. 21)', 'exempt', 'zero', NULL, NULL, 'gross', '230', NULL, NULL),
        ('R81', 'Reduction of consideration, standard rate', 'reduction', 'standard', '2200', NULL, 'gross', '235', '303', NULL),
        ('R26', 'Reduction of consideration, reduced rate', 'reduction', 'reduced', '2201', NULL, 'gross', '235', '313', NULL),
        ('R38', 'Reduction of consideration, accommodation rate', 'reduction', 'accommodation', '2202', NULL, 'gross', '235', '343', NULL),
        ('M81', 'Input tax on material and services, standard rate', 'input', 'standard', '1170', NULL, 'gross', NULL, '400', NULL),
        ('M26', 'Input tax on material and services, reduced rate', 'input', 'reduced', '1170', NULL, 'gross', NULL, '400', NULL),
        ('M38', 'Input tax on material and services, accommodation rate', 'input', 'accommodation', '1170', NULL, 'gross', NULL, '400', NULL),
        ('I81', 'Input tax on investments and other operating costs, standard rate', 'input', 'standard', '1171', NULL, 'gross', NULL, '405', NULL),
        ('I26', 'Input tax on investments and other operating costs, reduced rate', 'input', 'reduced', '1171', NULL, 'gross', NULL, '405', NULL),
        ('I38', 'Input tax on investments and other operating costs, accommodation rate', 'input', 'accommodation', '1171', NULL, 'gross', NULL, '405', NULL),
        ('B81', 'Acquisition tax, standard rate', 'acquisition', 'standard', '2203', '1170', 'net', '383', '383', '400'),
        ('B26', 'Acquisition tax, reduced rate', 'acquisition', 'reduced', '2203', '1170', 'net', '383', '383', '400'),
        ('O0', 'Outside the scope of VAT', 'outside', 'zero', NULL, NULL, 'gross', NULL, NULL, NULL),
        ('O900', 'Subsidies, tourist and fund contributions (art. 18 para. 2 a-c)', 'outside', 'zero', NULL, NULL, 'gross', '900', NULL, NULL),
        ('O910', 'Donations, dividends, damages (art. 18 para. 2 d-l)', 'outside', 'zero', NULL, NULL, 'gross', '910', NULL, NULL)
      ) AS s(code, name, kind, rate_type, account_number, deduction_account_number, default_entry, ziffer_base, ziffer_tax, ziffer_deduction)
      ON CONFLICT (instance_id, code) DO NOTHING
      RETURNING 1)
    SELECT count(*)::integer FROM seeded
  $$;
GRANT EXECUTE ON FUNCTION seed_vat_codes(uuid) TO bilan_app;
GRANT EXECUTE ON FUNCTION vat_rate_percent(text, date) TO bilan_app;

-- Back-fill of postings written before this migration, where the books tell (decision 019):
-- a posting on the VAT account of a seeded code (2200/2201/2202 sales, 1170/1171 input) with no
-- code, in an entry with a supply (a revenue line for sales, an expense or asset line for input, in
-- the same direction; not a payment of the tax or a transfer between VAT accounts) is that code's
-- tax line; among the codes sharing the account, the one whose rate (at the
-- entry's date, or the 2024 rate the product posted at) best explains the tax from the entry's
-- base lines; the base lines are the entry's postings in the same direction on revenue (sales) or
-- expense and asset (input) accounts, taken only when the entry has one tax line and its tax is
-- within half a cent per base line of base × rate. Otherwise the tax line alone is marked, at the
-- standard code and the rate of its date, with vat_base = tax ÷ rate. Lines on other accounts stay
-- uncoded. Returns the number of lines marked. Runs as the caller (row security applies); the
-- migration's own run lifts the lock-date trigger (only VAT columns change, never an amount), a
-- later call refuses postings on or before the lock date like any other change. Not granted to the
-- application role: it sets the document-posting flag of 0014 for its own updates.
CREATE FUNCTION backfill_vat_postings(p_instance uuid) RETURNS integer
  LANGUAGE plpgsql VOLATILE
  AS $$
DECLARE
  tax record;
  best record;
  marked integer := 0;
  bases numeric;
  base_count integer;
  v_sign integer;
BEGIN
  -- Document postings are changed through their documents only (0014); this is the migration's own write.
  PERFORM set_config('bilan.document_posting', 'on', true);
  FOR tax IN
    SELECT l.id, l.entry_id, l.date_ledger, l.direction, l.amount, a.number AS account_number,
           bool_or(c.kind = 'sales') AS is_sales
      FROM journal_line l
      JOIN ledger_account a ON a.instance_id = l.instance_id AND a.id = l.account_id
      JOIN vat_code c ON c.instance_id = l.instance_id AND c.account_number = a.number AND c.kind IN ('sales', 'input')
     WHERE l.instance_id = p_instance AND l.vat_code IS NULL
       -- one tax line per entry: an entry with several VAT-account postings is marked line by line
       -- without base lines
     GROUP BY l.id, l.entry_id, l.date_ledger, l.direction, l.amount, a.number
  LOOP
    -- Base candidates: same entry, same direction, not a VAT account, revenue (sales) or expense/asset (input).
    SELECT coalesce(sum(b.amount), 0), count(*) INTO bases, base_count
      FROM journal_line b JOIN ledger_account ba ON ba.instance_id = b.instance_id AND ba.id = b.account_id
     WHERE b.instance_id = p_instance AND b.entry_id = tax.entry_id AND b.id <> tax.id AND b.direction = tax.direction
       AND b.vat_code IS NULL
       AND NOT EXISTS (SELECT 1 FROM vat_code v WHERE v.instance_id = p_instance AND v.account_number = ba.number)
       AND (CASE WHEN tax.is_sales THEN ba.type_id = 4 ELSE ba.type_id IN (1, 3) END);
    -- No supply in the entry (a payment of the tax to the ESTV, a transfer between VAT accounts):
    -- not a tax line of a supply, left uncoded.
    CONTINUE WHEN base_count = 0;
    IF (SELECT count(*) FROM journal_line o JOIN ledger_account oa ON oa.instance_id = o.instance_id AND oa.id = o.account_id
         WHERE o.instance_id = p_instance AND o.entry_id = tax.entry_id AND o.direction = tax.direction
           AND EXISTS (SELECT 1 FROM vat_code v WHERE v.instance_id = p_instance AND v.account_number = oa.number AND v.kind IN ('sales', 'input'))) > 1 THEN
      base_count := 0;
    END IF;
    best := NULL;
    IF base_count > 0 THEN
      SELECT c.code, c.kind, r.percent INTO best
        FROM vat_code c
        CROSS JOIN LATERAL (VALUES (vat_rate_percent(c.rate_type, tax.date_ledger)), (vat_rate_percent(c.rate_type, DATE '2024-01-01'))) AS r(percent)
       WHERE c.instance_id = p_instance AND c.account_number = tax.account_number AND c.kind IN ('sales', 'input') AND r.percent > 0
         AND abs(round(bases * r.percent / 100, 2) - tax.amount) <= 0.005 * base_count + 0.005
       ORDER BY abs(bases * r.percent / 100 - tax.amount), c.rate_type = 'standard' DESC, c.code
       LIMIT 1;
    END IF;
    IF best IS NOT NULL THEN
      v_sign := CASE WHEN tax.direction = (CASE WHEN best.kind = 'sales' THEN -1 ELSE 1 END) THEN 1 ELSE -1 END;
      UPDATE journal_line SET vat_code = best.code, vat_role = 'tax', vat_percent = best.percent,
                              vat_base = v_sign * bases, vat_amount = v_sign * amount
       WHERE instance_id = p_instance AND id = tax.id;
      -- Each base line's tax: its share, rounded per line (the tax line keeps the exact total).
      UPDATE journal_line b SET vat_code = best.code, vat_role = 'base', vat_percent = best.percent,
                                vat_base = v_sign * b.amount, vat_amount = v_sign * round(b.amount * best.percent / 100, 2)
        FROM ledger_account ba
       WHERE b.instance_id = p_instance AND ba.instance_id = b.instance_id AND ba.id = b.account_id
         AND b.entry_id = tax.entry_id AND b.id <> tax.id AND b.direction = tax.direction AND b.vat_code IS NULL
         AND NOT EXISTS (SELECT 1 FROM vat_code v WHERE v.instance_id = p_instance AND v.account_number = ba.number)
         AND (CASE WHEN tax.is_sales THEN ba.type_id = 4 ELSE ba.type_id IN (1, 3) END);
      GET DIAGNOSTICS base_count = ROW_COUNT;
      marked := marked + 1 + base_count;
    ELSE
      SELECT c.code, c.kind, vat_rate_percent(c.rate_type, tax.date_ledger) AS percent INTO best
        FROM vat_code c
       WHERE c.instance_id = p_instance AND c.account_number = tax.account_number AND c.kind IN ('sales', 'input')
       ORDER BY c.rate_type = 'standard' DESC, c.code
       LIMIT 1;
      v_sign := CASE WHEN tax.direction = (CASE WHEN best.kind = 'sales' THEN -1 ELSE 1 END) THEN 1 ELSE -1 END;
      UPDATE journal_line SET vat_code = best.code, vat_role = 'tax', vat_percent = best.percent,
                              vat_base = v_sign * round(amount * 100 / best.percent, 2), vat_amount = v_sign * amount
       WHERE instance_id = p_instance AND id = tax.id;
      marked := marked + 1;
    END IF;
  END LOOP;
  PERFORM set_config('bilan.document_posting', '', true);
  RETURN marked;
END $$;

-- Existing instances: the seed for every instance whose chart is loaded (onboarding seeds the rest
-- with the chart, chart.service.ts), then the back-fill. Row security is FORCE'd: FORCE is lifted
-- for the one query that finds the instances (as 0009 does), then each instance is entered as the
-- application would (bilan.instance_id). The update trigger of 0001 is lifted for the back-fill:
-- it refuses any change on or before a lock date, and the back-fill changes no amount, so the month
-- balances and the balance check have nothing to do.
DO $$
DECLARE
  instances uuid[];
  i uuid;
BEGIN
  ALTER TABLE ledger_account NO FORCE ROW LEVEL SECURITY;
  SELECT coalesce(array_agg(DISTINCT instance_id), '{}') INTO instances FROM ledger_account;
  ALTER TABLE ledger_account FORCE ROW LEVEL SECURITY;
  ALTER TABLE journal_line DISABLE TRIGGER journal_line_update;
  FOREACH i IN ARRAY instances LOOP
    PERFORM set_config('bilan.instance_id', i::text, true);
    PERFORM seed_vat_codes(i);
    PERFORM backfill_vat_postings(i);
  END LOOP;
  ALTER TABLE journal_line ENABLE TRIGGER journal_line_update;
  PERFORM set_config('bilan.instance_id', '', true);
END $$;
