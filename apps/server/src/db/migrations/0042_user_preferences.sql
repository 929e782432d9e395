-- A user's language and number format (issue 17 §3), chosen in the profile and the same in every
-- workplace of the user. NULL: not chosen — the web then follows the browser's language, and
-- amounts show in fr-CH (spec §5, §9 "Amount format: 2 decimals, locale fr-CH").
ALTER TABLE app_user
  ADD COLUMN language text CHECK (language IN ('de', 'fr', 'it', 'en')),
  ADD COLUMN number_format text CHECK (number_format IN ('fr-CH', 'de-CH', 'it-CH', 'en-CH'));
