-- Seeded VAT codes for the input tax figures 410, 415 and 420 of the ESTV form (issue 13 §1):
-- K410 subsequent input tax deduction (Einlageentsteuerung, MWSTG art. 32), K415 input tax
-- corrections for mixed and own use (art. 30, 31), K420 input tax reductions for subsidies and
-- donations (art. 33 para. 2). All three post to 1170. A correction or reduction is booked as a
-- credit on the cost account with K415/K420 (its tax credits 1170); the return shows it positive
-- in 415/420 and subtracts it in 479 (vat-return.service.ts). packages/domain SWISS_VAT_CODES
-- lists the same codes (a test keeps them equal).

CREATE OR REPLACE FUNCTION seed_vat_codes(p_instance uuid) RETURNS integer
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
        ('K410', 'Subsequent input tax deduction (art. 32)', 'input', 'standard', '1170', NULL, 'gross', NULL, '410', NULL),
        ('K415', 'Input tax corrections: mixed and own use (art. 30, 31)', 'input', 'standard', '1170', NULL, 'gross', NULL, '415', NULL),
        ('K420', 'Input tax reductions: subsidies and donations (art. 33 para. 2)', 'input', 'standard', '1170', NULL, 'gross', NULL, '420', NULL),
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

-- Instances that have the seed already get the three new codes; codes that exist stay as they are.
DO $$
DECLARE
  instances uuid[];
  i uuid;
BEGIN
  ALTER TABLE vat_code NO FORCE ROW LEVEL SECURITY;
  SELECT coalesce(array_agg(DISTINCT instance_id), '{}') INTO instances FROM vat_code;
  ALTER TABLE vat_code FORCE ROW LEVEL SECURITY;
  FOREACH i IN ARRAY instances LOOP
    PERFORM set_config('bilan.instance_id', i::text, true);
    PERFORM seed_vat_codes(i);
  END LOOP;
  PERFORM set_config('bilan.instance_id', '', true);
END $$;
