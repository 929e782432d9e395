/**
 * The UI's languages (issue 17 §3, decision 032): German, French, Italian and English through
 * i18next. Keys are the English texts themselves ("natural keys"), so English needs no catalog
 * (only plural forms) and a text without a translation shows in English rather than as a key.
 *
 * Catalogs live in `src/locales/{lang}/{area}.json` (one file per feature, so work on two
 * features never touches one file) and are merged into one namespace when a language is loaded.
 * A language is loaded before it is shown (`setLanguage` awaits it), so no page flickers in
 * English first; only the chosen language's files are downloaded.
 *
 * Texts defined outside a component (menu entries, option lists) are marked with `msg()` and
 * translated where they are shown with `t(label)`: the catalog test (`i18n.test.ts`) finds both
 * `t('…')` and `msg('…')` and checks every language has every key.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useSyncExternalStore } from 'react';
import { Country, countryIsoCode, countryNames, numberFormats, setDisplayNumberFormat, type CountryId, type NumberFormat } from '@bilan/domain';
import { readText, storageKeys, writeText } from './storage';

export const LANGUAGES = ['de', 'fr', 'it', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name, as a language picker shows it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { de: 'Deutsch', fr: 'Français', it: 'Italiano', en: 'English' };

/** The four languages as options of a picker (documents, templates, contacts): each in its own name. */
export const languageOptions: readonly { value: Language; label: string }[] = LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }));

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** Each language's catalogs, one chunk each (`locales/{lang}/index.ts`): one request, not one per feature. */
const catalogs: Readonly<Record<Language, () => Promise<{ default: Record<string, string>[] }>>> = {
  de: () => import('../locales/de/index'),
  fr: () => import('../locales/fr/index'),
  it: () => import('../locales/it/index'),
  en: () => import('../locales/en/index'),
};

/** Marks a text defined outside a component for translation; `t(text)` translates it where shown. */
export const msg = <T extends string>(text: T): T => text;

/** The browser's first language Bilan speaks, else English. */
export function browserLanguage(): Language {
  const candidates = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  for (const candidate of candidates) {
    const code = candidate?.slice(0, 2).toLowerCase();
    if (isLanguage(code)) return code;
  }
  return 'en';
}

/** The language to start in: the one stored as the spec's `locale` (spec §3), else the browser's. */
export function initialLanguage(): Language {
  const stored = readText(storageKeys.locale);
  return isLanguage(stored) ? stored : browserLanguage();
}

const loaded = new Set<Language>();
async function loadCatalogs(language: Language): Promise<void> {
  if (loaded.has(language)) return;
  const { default: bundles } = await catalogs[language]();
  for (const bundle of bundles) i18next.addResourceBundle(language, 'translation', bundle, true, true);
  loaded.add(language);
}

const isNumberFormat = (value: unknown): value is NumberFormat => typeof value === 'string' && (numberFormats as readonly string[]).includes(value);

/** The number formats a user can choose, with an example each (the spec's fr-CH first). */
export const NUMBER_FORMAT_EXAMPLES: Readonly<Record<NumberFormat, string>> = {
  'fr-CH': '1 234,50',
  'de-CH': "1'234.50",
  'it-CH': "1'234.50",
  'en-CH': "1'234.50",
};

const formatListeners = new Set<() => void>();
let numberFormat: NumberFormat = 'fr-CH';

/**
 * Shows amounts in `format` from now on (issue 17 §3; null: the spec's fr-CH) and keeps it for the
 * next page load. Components that show amounts re-render through `useNumberFormat`.
 */
export function setNumberFormat(format: NumberFormat | null): void {
  const next = format ?? 'fr-CH';
  writeText(storageKeys.numberFormat, format);
  if (next === numberFormat) return;
  numberFormat = next;
  setDisplayNumberFormat(next);
  for (const listener of formatListeners) listener();
}

/** The number format amounts are shown in now; re-renders its caller when it changes. */
export function useNumberFormat(): NumberFormat {
  return useSyncExternalStore(
    (listener) => {
      formatListeners.add(listener);
      return () => formatListeners.delete(listener);
    },
    () => numberFormat,
  );
}

let markStarted: () => void = () => undefined;
/** Resolves once startI18n has finished: the session, started beside it, waits for it before applying a profile's language. */
const started = new Promise<void>((resolve) => {
  markStarted = resolve;
});

/** Starts i18next in `language` with its catalogs loaded; call once before the first render. */
export async function startI18n(language: Language = initialLanguage()): Promise<void> {
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: false,
    resources: {},
    partialBundledLanguages: true,
    // Natural keys contain '.' and ':'.
    keySeparator: false,
    nsSeparator: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  await loadCatalogs(language);
  document.documentElement.lang = language;
  const storedFormat = readText(storageKeys.numberFormat);
  if (isNumberFormat(storedFormat)) setNumberFormat(storedFormat);
  markStarted();
}

/**
 * Takes the signed-in user's choices from their profile (issue 17 §3): a chosen language replaces
 * the browser's, a chosen number format the spec's fr-CH. Unchosen ones leave what is shown.
 */
export async function applyPreferences(profile: { language?: string | null; numberFormat?: string | null }): Promise<void> {
  await started;
  if (isLanguage(profile.language) && profile.language !== currentLanguage()) await setLanguage(profile.language);
  setNumberFormat(isNumberFormat(profile.numberFormat) ? profile.numberFormat : null);
}

/** Switches the UI to `language` once its catalogs are loaded, and stores it as the spec's `locale`. */
export async function setLanguage(language: Language): Promise<void> {
  await loadCatalogs(language);
  writeText(storageKeys.locale, language);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

/**
 * `t` outside components (error sentences, messages built in plain functions), in the language
 * shown now. Before i18next starts (unit tests, a failure at start-up) it answers the English text.
 */
export function translate(text: string, values: Record<string, unknown> = {}): string {
  if (i18next.isInitialized) return i18next.t(text, values);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
}

const regionNames = new Map<string, Intl.DisplayNames>();
/**
 * A country's name in the UI's language, from its ISO 3166 code through the browser's own CLDR
 * data (Intl.DisplayNames): no catalog to keep. The domain's English name where the browser has none.
 */
export function countryName(id: number): string {
  const english = countryNames.find((name) => Country[name] === id) ?? String(id);
  const iso = countryIsoCode[id as CountryId];
  if (!iso || currentLanguage() === 'en') return english;
  let names = regionNames.get(currentLanguage());
  if (!names) {
    names = new Intl.DisplayNames([`${currentLanguage()}-CH`], { type: 'region' });
    regionNames.set(currentLanguage(), names);
  }
  return names.of(iso) ?? english;
}

/** The countries for a select, in the UI's language, sorted by name (value: the country's id). */
export const countryOptions = (): { value: string; label: string }[] =>
  countryNames
    .map((name) => ({ value: String(Country[name]), label: countryName(Country[name]) }))
    .sort((a, b) => (a.value === '1' ? -1 : b.value === '1' ? 1 : a.label.localeCompare(b.label, currentLanguage())));

/** The language shown now. */
export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : 'en');

export { i18next };
