/**
 * Texts the server composes for the UI to show (issue 17 §3, decision 032): the accounting checks'
 * names, details and item labels, the labels of the documents they list. Unlike the 4xx messages
 * of message-catalog.ts (translated after the fact, by exact text or pattern), these are written
 * from an English template with named `{{placeholders}}`; the template is looked up in
 * `SERVER_TEXTS` (German, French, Italian) before the values go in. The English template is the
 * key and the contract: English, or a template without a translation, writes the English text, so
 * the English answers stay byte for byte what they were.
 *
 * Values (dates dd.mm.yyyy, amounts "CHF 1500.00", account numbers and names, descriptions) are
 * data and never translated. A count picks the template by the language's plural rule
 * (`say.plural(count, one, other)`: French says "0 écriture" where English says "0 entries").
 *
 * Mark a template with `say('…')`, `say.plural(n, '…', '…')` or, where it is kept in a table,
 * `msg('…')`: `test/http/server-texts.test.ts` scans the sources for these three and fails on a
 * template without a translation or a translation that loses or invents a placeholder.
 *
 * Terms as in message-catalog.ts: Buchung / écriture / registrazione, Buchungszeile / ligne
 * d'écriture / riga di registrazione (a posting), Konto / compte / conto, Saldo / solde / saldo,
 * Soll / Haben (débit / crédit, dare / avere), Probebilanz / balance de vérification / bilancio di
 * verifica, Bankauszug / relevé bancaire / estratto conto bancario. Swiss German ("ss", never "ß").
 */
import type { MessageLanguage } from '@bilan/domain';

type Translated = 'de' | 'fr' | 'it';
type Translations = Readonly<Record<Translated, string>>;

/** Values of a template's placeholders: text or a count, inserted as they are. */
export type TextParams = Readonly<Record<string, string | number>>;

/** Writes texts in one language; see the module comment. */
export interface Say {
  /** `template` (an English literal) in the language, its `{{placeholders}}` filled from `params`. */
  (template: string, params?: TextParams): string;
  /**
   * `one` or `other` by the language's plural rule for `count`, with `{{count}}` set to it.
   * English picks `one` for 1 only.
   */
  plural(count: number, one: string, other: string, params?: TextParams): string;
  readonly language: MessageLanguage;
}

/** Marks a template kept in a table (the scan finds it); returns it unchanged. */
export const msg = <T extends string>(template: T): T => template;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The placeholder names of a template, sorted (the tests compare them). */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).sort();
}

/** Fills `{{name}}` from `params` in one pass (a value holding "{{…}}" stays as it is); a missing value keeps its placeholder. */
function fill(template: string, params: TextParams | undefined): string {
  if (!params) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** `template` in `language` with its values: the catalog's translation, or the English template. */
export function serverText(language: MessageLanguage, template: string, params?: TextParams): string {
  const translated = language === 'en' ? template : (SERVER_TEXTS.get(template)?.[language] ?? template);
  return fill(translated, params);
}

const pluralRules = new Map<MessageLanguage, Intl.PluralRules>();

/** A `Say` for `language` (the request's `messageLanguageOf(accept-language)`). */
export function sayIn(language: MessageLanguage): Say {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  const plurals = rules;
  const say = (template: string, params?: TextParams) => serverText(language, template, params);
  const plural = (count: number, one: string, other: string, params?: TextParams) =>
    serverText(language, (language === 'en' ? count === 1 : plurals.select(count) === 'one') ? one : other, { ...params, count });
  return Object.assign(say, { plural, language });
}

const tr = (de: string, fr: string, it: string): Translations => ({ de, fr, it });

/** Templates, keyed by their exact English text. */
export const SERVER_TEXTS: ReadonlyMap<string, Translations> = new Map<string, Translations>([
  // accounting checks: words and fragments
  ['{{from}} to {{to}}', tr('{{from}} bis {{to}}', '{{from}} au {{to}}', '{{from}} al {{to}}')],
  ['{{first}} and {{second}}', tr('{{first}} und {{second}}', '{{first}} et {{second}}', '{{first}} e {{second}}')],
  ['account {{id}}', tr('Konto {{id}}', 'compte {{id}}', 'conto {{id}}')],
  ['no account', tr('kein Konto', 'aucun compte', 'nessun conto')],
  ['{{count}} entry', tr('{{count}} Buchung', '{{count}} écriture', '{{count}} registrazione')],
  ['{{count}} entries', tr('{{count}} Buchungen', '{{count}} écritures', '{{count}} registrazioni')],
  ['{{count}} posting', tr('{{count}} Buchungszeile', "{{count}} ligne d'écriture", '{{count}} riga di registrazione')],
  ['{{count}} postings', tr('{{count}} Buchungszeilen', "{{count}} lignes d'écriture", '{{count}} righe di registrazione')],
  ['{{count}} group', tr('{{count}} Gruppe', '{{count}} groupe', '{{count}} gruppo')],
  ['{{count}} groups', tr('{{count}} Gruppen', '{{count}} groupes', '{{count}} gruppi')],
  ['{{groups}} among the first listed', tr('{{groups}} unter den zuerst aufgeführten', '{{groups}} parmi les premières listées', '{{groups}} tra le prime elencate')],
  ['debit balance', tr('Sollsaldo', 'solde débiteur', 'saldo dare')],
  ['credit balance', tr('Habensaldo', 'solde créditeur', 'saldo avere')],
  ['{{count}} invoice', tr('{{count}} Rechnung', '{{count}} facture', '{{count}} fattura')],
  ['{{count}} invoices', tr('{{count}} Rechnungen', '{{count}} factures', '{{count}} fatture')],
  ['no invoice', tr('keine Rechnung', 'aucune facture', 'nessuna fattura')],
  ['the invoices', tr('den Rechnungen', 'des factures', 'dalle fatture')],
  ['the open invoices', tr('die offenen Rechnungen', 'les factures en suspens', 'le fatture in sospeso')],
  ['{{count}} bill', tr('{{count}} Lieferantenrechnung', '{{count}} facture fournisseur', '{{count}} fattura fornitore')],
  ['{{count}} bills', tr('{{count}} Lieferantenrechnungen', '{{count}} factures fournisseurs', '{{count}} fatture fornitori')],
  ['no bill', tr('keine Lieferantenrechnung', 'aucune facture fournisseur', 'nessuna fattura fornitore')],
  ['the bills', tr('den Lieferantenrechnungen', 'des factures fournisseurs', 'dalle fatture fornitori')],
  ['the open bills', tr('die offenen Lieferantenrechnungen', 'les factures fournisseurs en suspens', 'le fatture fornitori in sospeso')],
  ['{{count}} bill or expense', tr('{{count}} Lieferantenrechnung oder Spesenabrechnung', '{{count}} facture fournisseur ou note de frais', '{{count}} fattura fornitore o nota spese')],
  ['{{count}} bills and expenses', tr('{{count}} Lieferantenrechnungen und Spesenabrechnungen', '{{count}} factures fournisseurs et notes de frais', '{{count}} fatture fornitori e note spese')],
  ['no bill or expense', tr('keine Lieferantenrechnung oder Spesenabrechnung', 'aucune facture fournisseur ni note de frais', 'nessuna fattura fornitore o nota spese')],
  ['the bills and expenses', tr('den Lieferantenrechnungen und Spesenabrechnungen', 'des factures fournisseurs et notes de frais', 'dalle fatture fornitori e note spese')],
  ['the open bills and expenses', tr('die offenen Lieferantenrechnungen und Spesenabrechnungen', 'les factures fournisseurs et notes de frais en suspens', 'le fatture fornitori e note spese in sospeso')],
  ['{{count}} expense', tr('{{count}} Spesenabrechnung', '{{count}} note de frais', '{{count}} nota spese')],
  ['{{count}} expenses', tr('{{count}} Spesenabrechnungen', '{{count}} notes de frais', '{{count}} note spese')],
  ['no expense', tr('keine Spesenabrechnung', 'aucune note de frais', 'nessuna nota spese')],
  ['the expenses', tr('den Spesenabrechnungen', 'des notes de frais', 'dalle note spese')],
  ['the open expenses', tr('die offenen Spesenabrechnungen', 'les notes de frais en suspens', 'le note spese in sospeso')],
  // accounting checks: names
  ['Every journal entry balances with at least two postings.', tr('Jede Buchung ist ausgeglichen und hat mindestens zwei Buchungszeilen.', "Chaque écriture est équilibrée et compte au moins deux lignes d'écriture.", 'Ogni registrazione è in pareggio e ha almeno due righe di registrazione.')],
  ['The trial balance sums to zero (debit total = credit total).', tr('Die Probebilanz geht auf (Soll-Total = Haben-Total).', 'La balance de vérification est équilibrée (total débit = total crédit).', 'Il bilancio di verifica è in pareggio (totale dare = totale avere).')],
  ['The month balances match the postings.', tr('Die Monatssaldi stimmen mit den Buchungszeilen überein.', "Les soldes mensuels correspondent aux lignes d'écriture.", 'I saldi mensili corrispondono alle righe di registrazione.')],
  ['Receivables agree with the open invoices.', tr('Die Debitoren stimmen mit den offenen Rechnungen überein.', 'Les débiteurs concordent avec les factures en suspens.', 'I debitori concordano con le fatture in sospeso.')],
  ['Payables agree with the open bills.', tr('Die Kreditoren stimmen mit den offenen Lieferantenrechnungen überein.', 'Les créanciers concordent avec les factures fournisseurs en suspens.', 'I creditori concordano con le fatture fornitori in sospeso.')],
  ['Expenses owed to staff agree with the open expenses.', tr('Die Spesenschulden gegenüber Mitarbeitenden stimmen mit den offenen Spesenabrechnungen überein.', 'Les frais dus au personnel concordent avec les notes de frais en suspens.', 'Le spese dovute al personale concordano con le note spese in sospeso.')],
  ["Each bank account's balance agrees with its last bank statement.", tr('Der Saldo jedes Bankkontos stimmt mit seinem letzten Bankauszug überein.', 'Le solde de chaque compte bancaire concorde avec son dernier relevé bancaire.', 'Il saldo di ogni conto bancario concorda con il suo ultimo estratto conto bancario.')],
  ['Bank lines are reconciled within 30 days.', tr('Bankbewegungen werden innert 30 Tagen abgestimmt.', 'Les mouvements bancaires sont rapprochés dans les 30 jours.', 'I movimenti bancari sono riconciliati entro 30 giorni.')],
  ['Clearing and suspense accounts are cleared.', tr('Durchlauf- und Zwischenkonten sind ausgeglichen.', "Les comptes de passage et d'attente sont soldés.", 'I conti transitori e di attesa sono pareggiati.')],
  ['The VAT accounts agree with the VAT of the invoices and bills.', tr('Die MWST-Konten stimmen mit der MWST der Rechnungen und Lieferantenrechnungen überein.', 'Les comptes TVA concordent avec la TVA des factures et des factures fournisseurs.', "I conti IVA concordano con l'IVA delle fatture e delle fatture fornitori.")],
  ['No journal entry is dated after today.', tr('Keine Buchung ist nach heute datiert.', "Aucune écriture n'est datée après aujourd'hui.", 'Nessuna registrazione è datata dopo oggi.')],
  ['No journal entry is booked twice.', tr('Keine Buchung ist doppelt erfasst.', "Aucune écriture n'est comptabilisée deux fois.", 'Nessuna registrazione è contabilizzata due volte.')],
  ['Cash, bank and liability accounts have their balance on the expected side.', tr('Kassen-, Bank- und Passivkonten haben ihren Saldo auf der erwarteten Seite.', 'Les comptes de caisse, de banque et de passif ont leur solde du côté attendu.', 'I conti cassa, banca e passivi hanno il saldo dal lato atteso.')],
  // accounting checks: entries balanced
  ['{{entries}} with {{postings}} from {{period}}: each has debit = credit and at least two postings.', tr('{{entries}} mit {{postings}} vom {{period}}: jede hat Soll = Haben und mindestens zwei Buchungszeilen.', "{{entries}} avec {{postings}} du {{period}} : chacune a débit = crédit et au moins deux lignes d'écriture.", '{{entries}} con {{postings}} dal {{period}}: ognuna ha dare = avere e almeno due righe di registrazione.')],
  ['No entries from {{period}}.', tr('Keine Buchungen vom {{period}}.', 'Aucune écriture du {{period}}.', 'Nessuna registrazione dal {{period}}.')],
  ['Entry {{id}} of {{date}} "{{description}}": debit − credit = {{difference}}', tr('Buchung {{id}} vom {{date}} "{{description}}": Soll − Haben = {{difference}}', 'Écriture {{id}} du {{date}} "{{description}}" : débit − crédit = {{difference}}', 'Registrazione {{id}} del {{date}} "{{description}}": dare − avere = {{difference}}')],
  ['Entry {{id}} of {{date}} "{{description}}": {{postings}}', tr('Buchung {{id}} vom {{date}} "{{description}}": {{postings}}', 'Écriture {{id}} du {{date}} "{{description}}" : {{postings}}', 'Registrazione {{id}} del {{date}} "{{description}}": {{postings}}')],
  ['{{entries}} whose debit and credit differ', tr('{{entries}} mit ungleichem Soll und Haben', '{{entries}} dont le débit et le crédit diffèrent', '{{entries}} con dare e avere diversi')],
  ['{{entries}} with fewer than two postings', tr('{{entries}} mit weniger als zwei Buchungszeilen', "{{entries}} avec moins de deux lignes d'écriture", '{{entries}} con meno di due righe di registrazione')],
  ['From {{period}} there are {{problems}}: correct or delete them.', tr('Vom {{period}} gibt es {{problems}}: korrigieren oder löschen Sie sie.', 'Du {{period}}, il y a {{problems}} : corrigez-les ou supprimez-les.', 'Dal {{period}} ci sono {{problems}}: correggerle o eliminarle.')],
  // trial balance, month balances
  ['At {{date}} the debit total {{debit}} equals the credit total.', tr('Am {{date}} entspricht das Soll-Total {{debit}} dem Haben-Total.', 'Au {{date}}, le total débit {{debit}} est égal au total crédit.', 'Al {{date}} il totale dare {{debit}} è uguale al totale avere.')],
  ['At {{date}} the debit total {{debit}} differs from the credit total {{credit}} by {{difference}}.', tr('Am {{date}} weicht das Soll-Total {{debit}} um {{difference}} vom Haben-Total {{credit}} ab.', 'Au {{date}}, le total débit {{debit}} diffère du total crédit {{credit}} de {{difference}}.', 'Al {{date}} il totale dare {{debit}} differisce dal totale avere {{credit}} di {{difference}}.')],
  ['For every account and month from {{from}} to {{to}} the stored month balance equals the sum of its postings.', tr('Für jedes Konto und jeden Monat von {{from}} bis {{to}} entspricht der gespeicherte Monatssaldo der Summe seiner Buchungszeilen.', "Pour chaque compte et chaque mois de {{from}} à {{to}}, le solde mensuel enregistré est égal à la somme de ses lignes d'écriture.", 'Per ogni conto e ogni mese da {{from}} a {{to}} il saldo mensile registrato è uguale alla somma delle sue righe di registrazione.')],
  ['{{count}} account month of the stored month balances differ from the postings; the balances and reports read them, so they are wrong until the table is rebuilt.', tr('{{count}} Kontomonat der gespeicherten Monatssaldi weicht von den Buchungszeilen ab; Saldi und Berichte lesen sie und sind deshalb falsch, bis die Tabelle neu aufgebaut ist.', "{{count}} mois de compte des soldes mensuels enregistrés diffère des lignes d'écriture ; les soldes et les rapports les lisent, ils sont donc faux jusqu'à la reconstruction de la table.", '{{count}} mese di conto dei saldi mensili registrati differisce dalle righe di registrazione; saldi e rapporti li leggono, quindi sono errati finché la tabella non viene ricostruita.')],
  ['{{count}} account months of the stored month balances differ from the postings; the balances and reports read them, so they are wrong until the table is rebuilt.', tr('{{count}} Kontomonate der gespeicherten Monatssaldi weichen von den Buchungszeilen ab; Saldi und Berichte lesen sie und sind deshalb falsch, bis die Tabelle neu aufgebaut ist.', "{{count}} mois de compte des soldes mensuels enregistrés diffèrent des lignes d'écriture ; les soldes et les rapports les lisent, ils sont donc faux jusqu'à la reconstruction de la table.", '{{count}} mesi di conto dei saldi mensili registrati differiscono dalle righe di registrazione; saldi e rapporti li leggono, quindi sono errati finché la tabella non viene ricostruita.')],
  ['{{account}} in {{month}}: postings {{posted}}, month balance {{stored}}', tr('{{account}} im {{month}}: Buchungszeilen {{posted}}, Monatssaldo {{stored}}', "{{account}} en {{month}} : lignes d'écriture {{posted}}, solde mensuel {{stored}}", '{{account}} in {{month}}: righe di registrazione {{posted}}, saldo mensile {{stored}}')],
  // receivables, payables, staff expenses
  ['The chart has no separate account for expenses owed to staff (2250): expenses are booked on {{account}} and checked with the payables.', tr('Der Kontenplan hat kein eigenes Konto für Spesenschulden gegenüber Mitarbeitenden (2250): Spesen werden auf {{account}} gebucht und mit den Kreditoren geprüft.', "Le plan comptable n'a pas de compte distinct pour les frais dus au personnel (2250) : les frais sont comptabilisés sur {{account}} et vérifiés avec les créanciers.", 'Il piano dei conti non ha un conto separato per le spese dovute al personale (2250): le spese sono registrate su {{account}} e verificate con i creditori.')],
  ['The chart has no account for these documents, and {{none}} is open at {{date}}.', tr('Der Kontenplan hat kein Konto für diese Belege, und {{none}} ist am {{date}} offen.', "Le plan comptable n'a pas de compte pour ces pièces, et {{none}} n'est en suspens au {{date}}.", 'Il piano dei conti non ha un conto per questi giustificativi, e {{none}} è in sospeso al {{date}}.')],
  ['{{documents}} open at {{date}} ({{open}}), but the chart has no control account to hold them.', tr('Am {{date}} offen: {{documents}} ({{open}}), aber der Kontenplan hat kein Sammelkonto dafür.', "Au {{date}}, {{documents}} en suspens ({{open}}), mais le plan comptable n'a pas de compte collectif pour les tenir.", 'Al {{date}} {{documents}} in sospeso ({{open}}), ma il piano dei conti non ha un conto collettivo per tenerle.')],
  ['{{account}}: {{sideBalance}} {{balance}} at {{date}} equals the {{documents}} open then.', tr('{{account}}: {{sideBalance}} {{balance}} am {{date}} entspricht den damals offenen Belegen ({{documents}}).', '{{account}} : {{sideBalance}} {{balance}} au {{date}}, égal aux pièces alors en suspens ({{documents}}).', '{{account}}: {{sideBalance}} {{balance}} al {{date}}, uguale ai giustificativi allora in sospeso ({{documents}}).')],
  ['{{account}}: balance {{balance}} at {{date}}, and {{none}} is open then.', tr('{{account}}: Saldo {{balance}} am {{date}}, und {{none}} ist zu diesem Zeitpunkt offen.', "{{account}} : solde {{balance}} au {{date}}, et {{none}} n'est en suspens à cette date.", '{{account}}: saldo {{balance}} al {{date}}, e {{none}} è in sospeso a quella data.')],
  ['{{account}}: {{sideBalance}} {{balance}} at {{date}}, but the {{documents}} open then come to {{open}}: a difference of {{difference}}.', tr('{{account}}: {{sideBalance}} {{balance}} am {{date}}, aber die damals offenen Belege ({{documents}}) ergeben {{open}}: eine Differenz von {{difference}}.', '{{account}} : {{sideBalance}} {{balance}} au {{date}}, mais les pièces alors en suspens ({{documents}}) totalisent {{open}} : une différence de {{difference}}.', '{{account}}: {{sideBalance}} {{balance}} al {{date}}, ma i giustificativi allora in sospeso ({{documents}}) ammontano a {{open}}: una differenza di {{difference}}.')],
  ['{{account}}: {{sideBalance}} {{balance}} at {{date}}, but {{none}} is open then: a difference of {{difference}}.', tr('{{account}}: {{sideBalance}} {{balance}} am {{date}}, aber {{none}} ist zu diesem Zeitpunkt offen: eine Differenz von {{difference}}.', "{{account}} : {{sideBalance}} {{balance}} au {{date}}, mais {{none}} n'est en suspens à cette date : une différence de {{difference}}.", '{{account}}: {{sideBalance}} {{balance}} al {{date}}, ma {{none}} è in sospeso a quella data: una differenza di {{difference}}.')],
  ['Postings on {{account}} that {{none}} made add up to {{sum}} ({{postings}}), which is the difference; they are listed first, then {{open}}.', tr('Buchungszeilen auf {{account}}, die {{none}} erzeugt hat, ergeben {{sum}} ({{postings}}), genau die Differenz; sie sind zuerst aufgeführt, danach {{open}}.', "Les lignes d'écriture sur {{account}} qui ne sont créées par {{none}} totalisent {{sum}} ({{postings}}), soit la différence ; elles sont listées en premier, puis {{open}}.", 'Le righe di registrazione su {{account}} non create da {{none}} ammontano a {{sum}} ({{postings}}), cioè la differenza; sono elencate per prime, poi {{open}}.')],
  ['Postings on {{account}} that {{none}} made add up to {{sum}} ({{postings}}); they are listed first, then {{open}}.', tr('Buchungszeilen auf {{account}}, die {{none}} erzeugt hat, ergeben {{sum}} ({{postings}}); sie sind zuerst aufgeführt, danach {{open}}.', "Les lignes d'écriture sur {{account}} qui ne sont créées par {{none}} totalisent {{sum}} ({{postings}}) ; elles sont listées en premier, puis {{open}}.", 'Le righe di registrazione su {{account}} non create da {{none}} ammontano a {{sum}} ({{postings}}); sono elencate per prime, poi {{open}}.')],
  ['Every posting on {{account}} comes from {{all}}; {{open}} are listed.', tr('Jede Buchungszeile auf {{account}} stammt von {{all}}; {{open}} sind aufgeführt.', "Chaque ligne d'écriture sur {{account}} vient {{all}} ; {{open}} sont listées.", 'Ogni riga di registrazione su {{account}} proviene {{all}}; {{open}} sono elencate.')],
  ['Entry {{id}} of {{date}} ({{source}}): "{{description}}"', tr('Buchung {{id}} vom {{date}} ({{source}}): "{{description}}"', 'Écriture {{id}} du {{date}} ({{source}}) : "{{description}}"', 'Registrazione {{id}} del {{date}} ({{source}}): "{{description}}"')],
  // the documents' labels (invoicing, payables, banking ledger-checks.ts)
  ['Invoice {{ref}} {{company}} of {{date}}', tr('Rechnung {{ref}} {{company}} vom {{date}}', 'Facture {{ref}} {{company}} du {{date}}', 'Fattura {{ref}} {{company}} del {{date}}')],
  ['Bill {{id}}', tr('Lieferantenrechnung {{id}}', 'Facture fournisseur {{id}}', 'Fattura fornitore {{id}}')],
  ['Expense {{id}}', tr('Spesenabrechnung {{id}}', 'Note de frais {{id}}', 'Nota spese {{id}}')],
  ['of {{date}}', tr('vom {{date}}', 'du {{date}}', 'del {{date}}')],
  ['bank line {{id}}', tr('Bankbewegung {{id}}', 'mouvement bancaire {{id}}', 'movimento bancario {{id}}')],
  // bank statements, bank lines
  ['No statement imported on or before {{date}} for {{accounts}}.', tr('Kein Bankauszug bis und mit {{date}} importiert für {{accounts}}.', "Aucun relevé importé jusqu'au {{date}} pour {{accounts}}.", 'Nessun estratto conto importato fino al {{date}} per {{accounts}}.')],
  ['No bank statement (camt.053) with a closing balance was imported up to {{date}} for {{accounts}}: nothing to compare.', tr('Bis {{date}} wurde für {{accounts}} kein Bankauszug (camt.053) mit Schlusssaldo importiert: nichts zu vergleichen.', "Aucun relevé bancaire (camt.053) avec solde de clôture n'a été importé jusqu'au {{date}} pour {{accounts}} : rien à comparer.", 'Fino al {{date}} non è stato importato nessun estratto conto bancario (camt.053) con saldo di chiusura per {{accounts}}: niente da confrontare.')],
  ['No bank statement (camt.053) with a closing balance was imported up to {{date}}: nothing to compare.', tr('Bis {{date}} wurde kein Bankauszug (camt.053) mit Schlusssaldo importiert: nichts zu vergleichen.', "Aucun relevé bancaire (camt.053) avec solde de clôture n'a été importé jusqu'au {{date}} : rien à comparer.", 'Fino al {{date}} non è stato importato nessun estratto conto bancario (camt.053) con saldo di chiusura: niente da confrontare.')],
  ['{{account}}: statement of {{date}} {{closing}}, ledger {{ledger}}', tr('{{account}}: Bankauszug vom {{date}} {{closing}}, Buchhaltung {{ledger}}', '{{account}} : relevé du {{date}} {{closing}}, comptabilité {{ledger}}', '{{account}}: estratto conto del {{date}} {{closing}}, contabilità {{ledger}}')],
  ['{{account}} agrees with its statement of {{date}} ({{balance}})', tr('{{account}} stimmt mit seinem Bankauszug vom {{date}} überein ({{balance}})', '{{account}} concorde avec son relevé du {{date}} ({{balance}})', "{{account}} concorda con il suo estratto conto del {{date}} ({{balance}})")],
  ['{{statement}}: difference {{difference}}', tr('{{statement}}: Differenz {{difference}}', '{{statement}} : différence {{difference}}', '{{statement}}: differenza {{difference}}')],
  ['Book the missing bank lines on the reconciliation page or find the posting on the wrong date or account.', tr('Buchen Sie die fehlenden Bankbewegungen auf der Abstimmungsseite oder suchen Sie die Buchungszeile mit falschem Datum oder Konto.', "Comptabilisez les mouvements bancaires manquants sur la page de rapprochement ou cherchez la ligne d'écriture à la mauvaise date ou sur le mauvais compte.", 'Registrare i movimenti bancari mancanti nella pagina di riconciliazione o cercare la riga di registrazione con data o conto errati.')],
  ['Every bank line booked before {{date}} (30 days before {{end}}) is matched or booked.', tr('Jede vor dem {{date}} (30 Tage vor dem {{end}}) gebuchte Bankbewegung ist zugeordnet oder verbucht.', 'Chaque mouvement bancaire comptabilisé avant le {{date}} (30 jours avant le {{end}}) est attribué ou comptabilisé.', 'Ogni movimento bancario contabilizzato prima del {{date}} (30 giorni prima del {{end}}) è abbinato o registrato.')],
  ["{{count}} bank line booked before {{date}} is still neither matched to an invoice or bill nor booked ({{accounts}}): reconcile them on the account's reconciliation page.", tr('{{count}} vor dem {{date}} gebuchte Bankbewegung ist weder einer Rechnung oder Lieferantenrechnung zugeordnet noch verbucht ({{accounts}}): stimmen Sie sie auf der Abstimmungsseite des Kontos ab.', "{{count}} mouvement bancaire comptabilisé avant le {{date}} n'est encore ni attribué à une facture ou facture fournisseur ni comptabilisé ({{accounts}}) : rapprochez-le sur la page de rapprochement du compte.", '{{count}} movimento bancario contabilizzato prima del {{date}} non è ancora né abbinato a una fattura o fattura fornitore né registrato ({{accounts}}): riconciliarlo nella pagina di riconciliazione del conto.')],
  ["{{count}} bank lines booked before {{date}} are still neither matched to an invoice or bill nor booked ({{accounts}}): reconcile them on the account's reconciliation page.", tr('{{count}} vor dem {{date}} gebuchte Bankbewegungen sind weder einer Rechnung oder Lieferantenrechnung zugeordnet noch verbucht ({{accounts}}): stimmen Sie sie auf der Abstimmungsseite des Kontos ab.', "{{count}} mouvements bancaires comptabilisés avant le {{date}} ne sont encore ni attribués à une facture ou facture fournisseur ni comptabilisés ({{accounts}}) : rapprochez-les sur la page de rapprochement du compte.", '{{count}} movimenti bancari contabilizzati prima del {{date}} non sono ancora né abbinati a una fattura o fattura fornitore né registrati ({{accounts}}): riconciliarli nella pagina di riconciliazione del conto.')],
  // clearing accounts
  ['a transfer or payroll clearing account', tr('ein Transfer- oder Lohndurchlaufkonto', 'un compte de transfert ou de passage des salaires', 'un conto di trasferimento o transitorio dei salari')],
  ['a money transfer clearing account', tr('ein Geldtransferkonto', 'un compte de transfert de fonds', 'un conto di trasferimento di denaro')],
  ['a suspense account for unclear amounts', tr('ein Zwischenkonto für unklare Beträge', "un compte d'attente pour montants incertains", 'un conto di attesa per importi non chiari')],
  ['customer prepayments: each should be for a delivery still owed and settled with its invoice', tr('Anzahlungen von Kunden: jede sollte für eine noch geschuldete Lieferung sein und mit ihrer Rechnung verrechnet werden', 'acomptes de clients : chacun devrait porter sur une livraison encore due et être soldé avec sa facture', 'acconti di clienti: ciascuno dovrebbe riferirsi a una fornitura ancora dovuta ed essere compensato con la sua fattura')],
  ['The chart has none of the clearing accounts {{numbers}}.', tr('Der Kontenplan hat keines der Durchlaufkonten {{numbers}}.', "Le plan comptable n'a aucun des comptes de passage {{numbers}}.", 'Il piano dei conti non ha nessuno dei conti transitori {{numbers}}.')],
  ['{{numbers}} is zero at {{date}}.', tr('{{numbers}} ist am {{date}} null.', '{{numbers}} est à zéro au {{date}}.', '{{numbers}} è a zero al {{date}}.')],
  ['{{numbers}} are zero at {{date}}.', tr('{{numbers}} sind am {{date}} null.', '{{numbers}} sont à zéro au {{date}}.', '{{numbers}} sono a zero al {{date}}.')],
  ['{{account}} holds {{balance}} (debit positive), {{why}}', tr('{{account}} weist {{balance}} aus (Soll positiv), {{why}}', '{{account}} présente {{balance}} (débit positif), {{why}}', '{{account}} presenta {{balance}} (dare positivo), {{why}}')],
  ['{{list}}. Clear them to the accounts they belong to before closing.', tr('{{list}}. Buchen Sie sie vor dem Abschluss auf die Konten um, zu denen sie gehören.', '{{list}}. Virez-les sur les comptes auxquels ils appartiennent avant la clôture.', '{{list}}. Stornarli sui conti a cui appartengono prima della chiusura.')],
  // VAT
  ['Output VAT credited to {{accounts}}: {{ledger}}; VAT of the {{invoices}} sent: {{vat}}.', tr('Geschuldete MWST im Haben von {{accounts}}: {{ledger}}; MWST der versandten Rechnungen ({{invoices}}): {{vat}}.', 'TVA due créditée sur {{accounts}} : {{ledger}} ; TVA des factures envoyées ({{invoices}}) : {{vat}}.', 'IVA dovuta accreditata su {{accounts}}: {{ledger}}; IVA delle fatture inviate ({{invoices}}): {{vat}}.')],
  ['Input VAT debited to {{accounts}}: {{ledger}}; VAT of the {{documents}} booked: {{vat}}.', tr('Vorsteuer im Soll von {{accounts}}: {{ledger}}; MWST der gebuchten Belege ({{documents}}): {{vat}}.', 'Impôt préalable débité sur {{accounts}} : {{ledger}} ; TVA des pièces comptabilisées ({{documents}}) : {{vat}}.', 'Imposta precedente addebitata su {{accounts}}: {{ledger}}; IVA dei giustificativi registrati ({{documents}}): {{vat}}.')],
  ['From {{period}}: {{output}} {{input}}', tr('Vom {{period}}: {{output}} {{input}}', 'Du {{period}} : {{output}} {{input}}', 'Dal {{period}}: {{output}} {{input}}')],
  ['{{intro}} Both agree (VAT payments and settlements are not compared).', tr('{{intro}} Beide stimmen überein (MWST-Zahlungen und -Abrechnungen werden nicht verglichen).', '{{intro}} Les deux concordent (les paiements et décomptes TVA ne sont pas comparés).', "{{intro}} Entrambi concordano (i pagamenti e i rendiconti IVA non sono confrontati).")],
  ['Entry {{id}} of {{date}} ({{source}}) on {{account}}: "{{description}}"', tr('Buchung {{id}} vom {{date}} ({{source}}) auf {{account}}: "{{description}}"', 'Écriture {{id}} du {{date}} ({{source}}) sur {{account}} : "{{description}}"', 'Registrazione {{id}} del {{date}} ({{source}}) su {{account}}: "{{description}}"')],
  ['output VAT differs by {{difference}} ({{postings}} not made by invoices, {{sum}})', tr('geschuldete MWST weicht um {{difference}} ab ({{postings}} nicht aus Rechnungen, {{sum}})', 'la TVA due diffère de {{difference}} ({{postings}} non issues de factures, {{sum}})', "l'IVA dovuta differisce di {{difference}} ({{postings}} non generate da fatture, {{sum}})")],
  ['input VAT differs by {{difference}} ({{postings}} not made by bills, {{sum}})', tr('Vorsteuer weicht um {{difference}} ab ({{postings}} nicht aus Lieferantenrechnungen, {{sum}})', "l'impôt préalable diffère de {{difference}} ({{postings}} non issues de factures fournisseurs, {{sum}})", "l'imposta precedente differisce di {{difference}} ({{postings}} non generate da fatture fornitori, {{sum}})")],
  ['{{intro}} The {{first}}; the {{second}}: make sure the VAT return includes what was posted by hand.', tr('{{intro}} Die {{first}}; die {{second}}: stellen Sie sicher, dass die MWST-Abrechnung das von Hand Gebuchte enthält.', '{{intro}} Différences : {{first}} ; {{second}}. Assurez-vous que le décompte TVA comprend ce qui a été comptabilisé à la main.', '{{intro}} Differenze: {{first}}; {{second}}. Verificare che il rendiconto IVA includa quanto registrato a mano.')],
  ['{{intro}} The {{difference}}: make sure the VAT return includes what was posted by hand.', tr('{{intro}} Die {{difference}}: stellen Sie sicher, dass die MWST-Abrechnung das von Hand Gebuchte enthält.', '{{intro}} Différence : {{difference}}. Assurez-vous que le décompte TVA comprend ce qui a été comptabilisé à la main.', '{{intro}} Differenza: {{difference}}. Verificare che il rendiconto IVA includa quanto registrato a mano.')],
  // future entries, duplicates
  ['No entry is dated after today ({{today}}).', tr('Keine Buchung ist nach heute ({{today}}) datiert.', "Aucune écriture n'est datée après aujourd'hui ({{today}}).", 'Nessuna registrazione è datata dopo oggi ({{today}}).')],
  ['{{count}} entry is dated after today ({{today}}), the first on {{first}}: a mistyped year? They count in every balance from their date on.', tr('{{count}} Buchung ist nach heute ({{today}}) datiert, die erste am {{first}}: ein vertipptes Jahr? Sie zählt ab ihrem Datum in jedem Saldo.', "{{count}} écriture est datée après aujourd'hui ({{today}}), la première au {{first}} : une erreur d'année ? Elle compte dans chaque solde à partir de sa date.", '{{count}} registrazione è datata dopo oggi ({{today}}), la prima il {{first}}: un anno digitato male? Conta in ogni saldo dalla sua data.')],
  ['{{count}} entries are dated after today ({{today}}), the first on {{first}}: a mistyped year? They count in every balance from their date on.', tr('{{count}} Buchungen sind nach heute ({{today}}) datiert, die erste am {{first}}: ein vertipptes Jahr? Sie zählen ab ihrem Datum in jedem Saldo.', "{{count}} écritures sont datées après aujourd'hui ({{today}}), la première au {{first}} : une erreur d'année ? Elles comptent dans chaque solde à partir de leur date.", '{{count}} registrazioni sono datate dopo oggi ({{today}}), la prima il {{first}}: un anno digitato male? Contano in ogni saldo dalla loro data.')],
  ['Entry {{id}} of {{date}}: "{{description}}" ({{total}})', tr('Buchung {{id}} vom {{date}}: "{{description}}" ({{total}})', 'Écriture {{id}} du {{date}} : "{{description}}" ({{total}})', 'Registrazione {{id}} del {{date}}: "{{description}}" ({{total}})')],
  ['Entry {{id}} of {{date}}: "{{description}}"', tr('Buchung {{id}} vom {{date}}: "{{description}}"', 'Écriture {{id}} du {{date}} : "{{description}}"', 'Registrazione {{id}} del {{date}}: "{{description}}"')],
  ['No two entries from {{period}} share date, amount and text.', tr('Keine zwei Buchungen vom {{period}} haben dasselbe Datum, denselben Betrag und denselben Text.', "Aucune paire d'écritures du {{period}} n'a même date, même montant et même texte.", 'Nessuna coppia di registrazioni dal {{period}} ha stessa data, stesso importo e stesso testo.')],
  ['{{entries}} from {{period}} share date, amount and text with another ({{groups}}): check whether one was booked twice.', tr('{{entries}} vom {{period}} haben Datum, Betrag und Text mit einer anderen gemeinsam ({{groups}}): prüfen Sie, ob eine doppelt gebucht wurde.', '{{entries}} du {{period}} ont date, montant et texte en commun avec une autre ({{groups}}) : vérifiez si une a été comptabilisée deux fois.', "{{entries}} dal {{period}} hanno data, importo e testo in comune con un'altra ({{groups}}): verificare se una è stata registrata due volte.")],
  // wrong-side balances
  ['cash or bank with a credit balance', tr('Kasse oder Bank mit Habensaldo', 'caisse ou banque avec solde créditeur', 'cassa o banca con saldo avere')],
  ['liability with a debit balance', tr('Verbindlichkeit mit Sollsaldo', 'dette avec solde débiteur', 'debito con saldo dare')],
  ['At {{date}} no cash or bank account has a credit balance and no liability a debit balance.', tr('Am {{date}} hat kein Kassen- oder Bankkonto einen Habensaldo und keine Verbindlichkeit einen Sollsaldo.', "Au {{date}}, aucun compte de caisse ou de banque n'a de solde créditeur et aucune dette de solde débiteur.", 'Al {{date}} nessun conto cassa o banca ha un saldo avere e nessun debito un saldo dare.')],
  ['At {{date}}: {{list}}. A negative cash balance is impossible and a bank overdraft belongs on a liability account; a liability in debit is usually a payment booked twice or on the wrong account.', tr('Am {{date}}: {{list}}. Ein negativer Kassenbestand ist unmöglich, und ein Bankkontokorrent im Minus gehört auf ein Passivkonto; eine Verbindlichkeit im Soll ist meist eine doppelt oder auf dem falschen Konto gebuchte Zahlung.', "Au {{date}} : {{list}}. Un solde de caisse négatif est impossible et un découvert bancaire va sur un compte de passif ; une dette au débit est en général un paiement comptabilisé deux fois ou sur le mauvais compte.", 'Al {{date}}: {{list}}. Un saldo di cassa negativo è impossibile e uno scoperto bancario va su un conto passivo; un debito in dare è di solito un pagamento registrato due volte o sul conto sbagliato.')],
]);
