/**
 * The structure of the financial statements (issue 12 §4) and which ledger account goes on which
 * line: the minimum structure of the Swiss Code of Obligations (OR / CO) Art. 959a (balance sheet)
 * and Art. 959b Abs. 2 (income statement, nature of expense method), with the official terms in
 * German, French and Italian (the English is the Federal Chancellery's unofficial translation).
 *
 * Accounts are placed by the Swiss SME chart (Kontenrahmen KMU; fixtures: shared/data/
 * swiss-sme-chart/chart-de.csv): its 3-digit groups cover ranges of 4-digit account numbers (group
 * 100 "Flüssige Mittel" is 1000–1059, 106 is 1060–1099, …), so the first four digits of an account
 * number give its line. An account whose number is in no range, or whose type contradicts the
 * range (a liability numbered 1xxx, an expense numbered 3xxx), goes by its type: asset → other
 * current assets, liability → other short-term liabilities, equity → other equity, revenue → other
 * operating income, expense → other operating expenses. So the type alone decides the statement
 * (assets, liabilities and equity on the balance sheet; revenue and expenses on the income
 * statement) and every account lands on exactly one line.
 */
import { AccountType, type AccountTypeId } from '@bilan/domain';

export const STATEMENT_LANGS = ['de', 'fr', 'it', 'en'] as const;
export type StatementLang = (typeof STATEMENT_LANGS)[number];
export type Labels = Record<StatementLang, string>;

/** Debit lines show debit − credit (assets, expenses), credit lines credit − debit (liabilities, equity, revenue). */
export type Side = 'debit' | 'credit';

export type BalanceSheetSectionKey = 'currentAssets' | 'fixedAssets' | 'shortTermLiabilities' | 'longTermLiabilities' | 'equity';
export type IncomeSectionKey = 'operatingIncome' | 'operatingExpenses' | 'depreciation' | 'financial' | 'nonOperating' | 'taxes';

interface LineDefinition<S extends string> {
  section: S;
  side: Side;
  /** The article of the Code of Obligations that asks for the line. */
  ref: string;
  labels: Labels;
}

const l = (de: string, fr: string, it: string, en: string): Labels => ({ de, fr, it, en });

/** Balance sheet lines in the order of OR 959a (Abs. 3: further lines where usual — the fallbacks, carried forward and result). */
export const BALANCE_SHEET_LINES = {
  cash: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. a',
    labels: l('Flüssige Mittel und kurzfristig gehaltene Aktiven mit Börsenkurs', 'Trésorerie et actifs cotés en bourse détenus à court terme', 'Liquidità e attivi detenuti a breve termine con un prezzo di borsa', 'Cash and current assets held at a stock exchange price'),
  },
  tradeReceivables: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. b',
    labels: l('Forderungen aus Lieferungen und Leistungen', 'Créances résultant de la vente de biens et de prestations de services', 'Crediti risultanti da forniture e prestazioni', 'Receivables from goods and services'),
  },
  otherReceivables: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. c',
    labels: l('Übrige kurzfristige Forderungen', 'Autres créances à court terme', 'Altri crediti a breve termine', 'Other current receivables'),
  },
  inventories: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. d',
    labels: l('Vorräte und nicht fakturierte Dienstleistungen', 'Stocks et prestations de services non facturées', 'Scorte e prestazioni di servizi non fatturate', 'Inventories and non-invoiced services'),
  },
  prepaidExpenses: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 1 Bst. e',
    labels: l('Aktive Rechnungsabgrenzungen', 'Actifs de régularisation', 'Ratei e risconti attivi', 'Prepaid expenses and accrued income'),
  },
  otherCurrentAssets: {
    section: 'currentAssets', side: 'debit', ref: 'OR 959a Abs. 3',
    labels: l('Übriges Umlaufvermögen', 'Autres actifs circulants', 'Altri attivi circolanti', 'Other current assets'),
  },
  financialAssets: {
    section: 'fixedAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 2 Bst. a',
    labels: l('Finanzanlagen', 'Immobilisations financières', 'Immobilizzazioni finanziarie', 'Financial assets'),
  },
  participations: {
    section: 'fixedAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 2 Bst. b',
    labels: l('Beteiligungen', 'Participations', 'Partecipazioni', 'Participations'),
  },
  tangibleAssets: {
    section: 'fixedAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 2 Bst. c',
    labels: l('Sachanlagen', 'Immobilisations corporelles', 'Immobilizzazioni materiali', 'Property, plant and equipment'),
  },
  intangibleAssets: {
    section: 'fixedAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 2 Bst. d',
    labels: l('Immaterielle Werte', 'Immobilisations incorporelles', 'Immobilizzazioni immateriali', 'Intangible assets'),
  },
  unpaidCapital: {
    section: 'fixedAssets', side: 'debit', ref: 'OR 959a Abs. 1 Ziff. 2 Bst. e',
    labels: l('Nicht einbezahltes Grund-, Gesellschafter- oder Stiftungskapital', 'Capital social, capital de fondation ou capital propre non libéré', 'Capitale sociale, capitale di fondazione o capitale proprio non versato', 'Unpaid share capital, capital contributions or foundation capital'),
  },
  tradePayables: {
    section: 'shortTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 1 Bst. a',
    labels: l('Verbindlichkeiten aus Lieferungen und Leistungen', "Dettes résultant de l'achat de biens et de prestations de services", 'Debiti risultanti da forniture e prestazioni', 'Trade accounts payable'),
  },
  shortTermInterestBearing: {
    section: 'shortTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 1 Bst. b',
    labels: l('Kurzfristige verzinsliche Verbindlichkeiten', 'Dettes à court terme portant intérêt', 'Debiti a breve termine onerosi', 'Short-term interest-bearing liabilities'),
  },
  otherShortTermLiabilities: {
    section: 'shortTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 1 Bst. c',
    labels: l('Übrige kurzfristige Verbindlichkeiten', 'Autres dettes à court terme', 'Altri debiti a breve termine', 'Other short-term liabilities'),
  },
  accruedLiabilities: {
    section: 'shortTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 1 Bst. d',
    labels: l('Passive Rechnungsabgrenzungen', 'Passifs de régularisation', 'Ratei e risconti passivi', 'Accrued expenses and deferred income'),
  },
  longTermInterestBearing: {
    section: 'longTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 2 Bst. a',
    labels: l('Langfristige verzinsliche Verbindlichkeiten', 'Dettes à long terme portant intérêt', 'Debiti a lungo termine onerosi', 'Long-term interest-bearing liabilities'),
  },
  otherLongTermLiabilities: {
    section: 'longTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 2 Bst. b',
    labels: l('Übrige langfristige Verbindlichkeiten', 'Autres dettes à long terme', 'Altri debiti a lungo termine', 'Other long-term liabilities'),
  },
  provisions: {
    section: 'longTermLiabilities', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 2 Bst. c',
    labels: l('Rückstellungen sowie vom Gesetz vorgesehene ähnliche Positionen', 'Provisions et postes analogues prévus par la loi', 'Accantonamenti e poste analoghe previste dalla legge', 'Provisions and similar items required by law'),
  },
  shareCapital: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. a',
    labels: l('Grund-, Gesellschafter- oder Stiftungskapital', 'Capital social, capital de fondation ou capital propre', 'Capitale sociale, capitale di fondazione o capitale proprio', 'Share capital, capital contributions or foundation capital'),
  },
  statutoryCapitalReserve: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. b',
    labels: l('Gesetzliche Kapitalreserve', 'Réserve légale issue du capital', 'Riserva legale da capitale', 'Statutory capital reserve'),
  },
  statutoryRetainedEarnings: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. c',
    labels: l('Gesetzliche Gewinnreserve', 'Réserve légale issue du bénéfice', 'Riserva legale da utili', 'Statutory retained earnings'),
  },
  voluntaryRetainedEarnings: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. d',
    labels: l('Freiwillige Gewinnreserven', 'Réserves facultatives issues du bénéfice', 'Riserve facoltative da utili', 'Voluntary retained earnings'),
  },
  profitCarriedForward: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. d',
    labels: l('Gewinn- oder Verlustvortrag', 'Bénéfice ou perte reporté', 'Utile o perdita riportati', 'Profit or loss carried forward'),
  },
  annualResult: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. d',
    labels: l('Jahresgewinn oder Jahresverlust', "Bénéfice ou perte de l'exercice", "Utile o perdita d'esercizio", 'Annual profit or loss'),
  },
  otherEquity: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 3',
    labels: l('Übriges Eigenkapital', 'Autres capitaux propres', 'Altro capitale proprio', 'Other equity'),
  },
  ownShares: {
    section: 'equity', side: 'credit', ref: 'OR 959a Abs. 2 Ziff. 3 Bst. e',
    labels: l('Eigene Kapitalanteile', 'Propres parts du capital', 'Quote proprie del capitale', 'Own capital shares'),
  },
} as const satisfies Record<string, LineDefinition<BalanceSheetSectionKey>>;

/** Income statement lines in the order of OR 959b Abs. 2 (nature of expense method). */
export const INCOME_LINES = {
  netRevenue: {
    section: 'operatingIncome', side: 'credit', ref: 'OR 959b Abs. 2 Ziff. 1',
    labels: l('Nettoerlöse aus Lieferungen und Leistungen', 'Produits nets des ventes de biens et de prestations de services', 'Ricavi netti da forniture e prestazioni', 'Net proceeds from sales of goods and services'),
  },
  inventoryChange: {
    section: 'operatingIncome', side: 'credit', ref: 'OR 959b Abs. 2 Ziff. 2',
    labels: l(
      'Bestandesänderungen an unfertigen und fertigen Erzeugnissen sowie an nicht fakturierten Dienstleistungen',
      'Variation des stocks de produits finis et semi-finis et variation des prestations de services non facturées',
      'Variazione delle scorte di prodotti finiti e semilavorati e variazione delle prestazioni di servizi non fatturate',
      'Change in inventories of unfinished and finished products and in non-invoiced services',
    ),
  },
  otherOperatingIncome: {
    section: 'operatingIncome', side: 'credit', ref: 'OR 959b Abs. 3',
    labels: l('Übriger betrieblicher Ertrag', "Autres produits d'exploitation", "Altri ricavi d'esercizio", 'Other operating income'),
  },
  materialExpense: {
    section: 'operatingExpenses', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 3',
    labels: l('Material- und Warenaufwand', 'Charges de matériel et de marchandises', 'Costi del materiale e delle merci', 'Material and goods costs'),
  },
  personnelExpense: {
    section: 'operatingExpenses', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 4',
    labels: l('Personalaufwand', 'Charges de personnel', 'Costi per il personale', 'Personnel costs'),
  },
  otherOperatingExpenses: {
    section: 'operatingExpenses', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 5',
    labels: l('Übriger betrieblicher Aufwand', "Autres charges d'exploitation", "Altri costi d'esercizio", 'Other operating expenses'),
  },
  depreciation: {
    section: 'depreciation', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 6',
    labels: l(
      'Abschreibungen und Wertberichtigungen auf Positionen des Anlagevermögens',
      "Amortissements et corrections de valeur sur les postes de l'actif immobilisé",
      "Ammortamenti e rettifiche di valore sulle poste dell'attivo fisso",
      'Depreciation and value adjustments on non-current assets',
    ),
  },
  financialExpense: {
    section: 'financial', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 7',
    labels: l('Finanzaufwand', 'Charges financières', 'Costi finanziari', 'Financial expenses'),
  },
  financialIncome: {
    section: 'financial', side: 'credit', ref: 'OR 959b Abs. 2 Ziff. 7',
    labels: l('Finanzertrag', 'Produits financiers', 'Ricavi finanziari', 'Financial income'),
  },
  nonOperatingExpense: {
    section: 'nonOperating', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 8',
    labels: l('Betriebsfremder Aufwand', 'Charges hors exploitation', "Costi estranei all'esercizio", 'Non-operating expenses'),
  },
  nonOperatingIncome: {
    section: 'nonOperating', side: 'credit', ref: 'OR 959b Abs. 2 Ziff. 8',
    labels: l('Betriebsfremder Ertrag', 'Produits hors exploitation', "Ricavi estranei all'esercizio", 'Non-operating income'),
  },
  extraordinaryExpense: {
    section: 'nonOperating', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 9',
    labels: l('Ausserordentlicher, einmaliger oder periodenfremder Aufwand', 'Charges exceptionnelles, uniques ou hors période', 'Costi straordinari, unici o relativi ad altri periodi', 'Extraordinary, non-recurring or prior-period expenses'),
  },
  extraordinaryIncome: {
    section: 'nonOperating', side: 'credit', ref: 'OR 959b Abs. 2 Ziff. 9',
    labels: l('Ausserordentlicher, einmaliger oder periodenfremder Ertrag', 'Produits exceptionnels, uniques ou hors période', 'Ricavi straordinari, unici o relativi ad altri periodi', 'Extraordinary, non-recurring or prior-period income'),
  },
  directTaxes: {
    section: 'taxes', side: 'debit', ref: 'OR 959b Abs. 2 Ziff. 10',
    labels: l('Direkte Steuern', 'Impôts directs', 'Imposte dirette', 'Direct taxes'),
  },
} as const satisfies Record<string, LineDefinition<IncomeSectionKey>>;

export type BalanceSheetLineKey = keyof typeof BALANCE_SHEET_LINES;
export type IncomeLineKey = keyof typeof INCOME_LINES;
export type LineKey = BalanceSheetLineKey | IncomeLineKey;

/** The two sides of the balance sheet, their sections in order, and the section totals' labels. */
export const BALANCE_SHEET_SIDES = [
  {
    key: 'assets',
    labels: l('Aktiven', 'Actifs', 'Attivi', 'Assets'),
    total: l('Total Aktiven', 'Total des actifs', 'Totale attivi', 'Total assets'),
    sections: [
      { key: 'currentAssets', labels: l('Umlaufvermögen', 'Actif circulant', 'Attivo circolante', 'Current assets'), total: l('Total Umlaufvermögen', 'Total actif circulant', 'Totale attivo circolante', 'Total current assets') },
      { key: 'fixedAssets', labels: l('Anlagevermögen', 'Actif immobilisé', 'Attivo fisso', 'Non-current assets'), total: l('Total Anlagevermögen', 'Total actif immobilisé', 'Totale attivo fisso', 'Total non-current assets') },
    ],
  },
  {
    key: 'liabilitiesAndEquity',
    labels: l('Passiven', 'Passifs', 'Passivi', 'Liabilities and equity'),
    total: l('Total Passiven', 'Total des passifs', 'Totale passivi', 'Total liabilities and equity'),
    sections: [
      {
        key: 'shortTermLiabilities',
        labels: l('Kurzfristiges Fremdkapital', 'Capitaux étrangers à court terme', 'Capitale di terzi a breve termine', 'Short-term liabilities'),
        total: l('Total kurzfristiges Fremdkapital', 'Total capitaux étrangers à court terme', 'Totale capitale di terzi a breve termine', 'Total short-term liabilities'),
      },
      {
        key: 'longTermLiabilities',
        labels: l('Langfristiges Fremdkapital', 'Capitaux étrangers à long terme', 'Capitale di terzi a lungo termine', 'Long-term liabilities'),
        total: l('Total langfristiges Fremdkapital', 'Total capitaux étrangers à long terme', 'Totale capitale di terzi a lungo termine', 'Total long-term liabilities'),
      },
      { key: 'equity', labels: l('Eigenkapital', 'Capitaux propres', 'Capitale proprio', 'Equity'), total: l('Total Eigenkapital', 'Total capitaux propres', 'Totale capitale proprio', 'Total equity') },
    ],
  },
] as const satisfies readonly { key: string; labels: Labels; total: Labels; sections: readonly { key: BalanceSheetSectionKey; labels: Labels; total: Labels }[] }[];

/**
 * The income statement's sections in order, each closed by a running result (the usual
 * subtotals of the nature of expense method; the last is the annual result, OR 959b Abs. 2 Ziff. 11).
 */
export const INCOME_SECTIONS = [
  { key: 'operatingIncome', result: l('Betrieblicher Ertrag', "Produits d'exploitation", "Ricavi d'esercizio", 'Operating income') },
  {
    key: 'operatingExpenses',
    result: l(
      'Betriebsergebnis vor Abschreibungen, Finanzerfolg und Steuern (EBITDA)',
      "Résultat d'exploitation avant amortissements, résultat financier et impôts (EBITDA)",
      "Risultato d'esercizio prima di ammortamenti, risultato finanziario e imposte (EBITDA)",
      'Operating result before depreciation, financial result and taxes (EBITDA)',
    ),
  },
  {
    key: 'depreciation',
    result: l(
      'Betriebsergebnis vor Finanzerfolg und Steuern (EBIT)',
      "Résultat d'exploitation avant résultat financier et impôts (EBIT)",
      "Risultato d'esercizio prima del risultato finanziario e delle imposte (EBIT)",
      'Operating result before financial result and taxes (EBIT)',
    ),
  },
  { key: 'financial', result: l('Ordentliches Ergebnis', 'Résultat ordinaire', 'Risultato ordinario', 'Ordinary result') },
  { key: 'nonOperating', result: l('Jahresergebnis vor Steuern', "Résultat de l'exercice avant impôts", "Risultato d'esercizio prima delle imposte", 'Result before taxes') },
  { key: 'taxes', result: l('Jahresgewinn oder Jahresverlust', "Bénéfice ou perte de l'exercice", "Utile o perdita d'esercizio", 'Annual profit or loss') },
] as const satisfies readonly { key: IncomeSectionKey; result: Labels }[];

/** Titles and the words the exports and the unclosed result need. */
export const STATEMENT_TEXTS = {
  balanceSheet: l('Bilanz', 'Bilan', 'Bilancio', 'Balance sheet'),
  income: l('Erfolgsrechnung', 'Compte de résultat', 'Conto economico', 'Income statement'),
  both: l('Jahresrechnung', 'Comptes annuels', 'Conto annuale', 'Financial statements'),
  /** The revenue and expense accounts' balance not yet moved to the profit-or-loss account by a closing. */
  unclosedResult: l('Ergebnis, noch nicht abgeschlossen', 'Résultat non encore clôturé', 'Risultato non ancora chiuso', 'Result not yet closed'),
  asOf: l('per', 'au', 'al', 'as of'),
  period: l('Periode', 'Période', 'Periodo', 'Period'),
  account: l('Konto', 'Compte', 'Conto', 'Account'),
  page: l('Seite', 'Page', 'Pagina', 'Page'),
  currency: l('Währung', 'Monnaie', 'Valuta', 'Currency'),
} as const satisfies Record<string, Labels>;

/** The statements CSV's headers in a person's file (decision 034), by machine column name. */
export const CSV_HEADERS = {
  statement: l('Bericht', 'État', 'Prospetto', 'Statement'),
  kind: l('Art', 'Type', 'Tipo', 'Kind'),
  section: l('Gruppe', 'Groupe', 'Gruppo', 'Section'),
  line: l('Position', 'Poste', 'Voce', 'Line'),
  account: l('Konto', 'Compte', 'Conto', 'Account'),
  label: l('Bezeichnung', 'Libellé', 'Descrizione', 'Label'),
  amount: l('Betrag', 'Montant', 'Importo', 'Amount'),
  compare: l('Vorperiode', 'Période précédente', 'Periodo precedente', 'Prior period'),
} as const satisfies Record<string, Labels>;

/** File names of the exports, ASCII (Content-Disposition), per language. */
export const FILE_NAMES = {
  balanceSheet: l('Bilanz', 'Bilan', 'Bilancio', 'BalanceSheet'),
  income: l('Erfolgsrechnung', 'CompteDeResultat', 'ContoEconomico', 'IncomeStatement'),
  both: l('Jahresrechnung', 'ComptesAnnuels', 'ContoAnnuale', 'FinancialStatements'),
} as const satisfies Record<string, Labels>;

type Kind = 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';

const KIND_OF_TYPE: Record<AccountTypeId, Kind> = {
  [AccountType.assets]: 'asset',
  [AccountType.liability]: 'liability',
  [AccountType.equity]: 'equity',
  [AccountType.revenue]: 'revenue',
  [AccountType.expenses]: 'expense',
};

/**
 * Ranges of the first four digits of the account number (inclusive) and the line each account type
 * in the range goes to. The SME chart's group of each range is named in the comment.
 */
export const ACCOUNT_RANGES: readonly { from: number; to: number; group: string; lines: Partial<Record<Kind, LineKey>> }[] = [
  // 1 Aktiven — 10 Umlaufvermögen
  { from: 1000, to: 1099, group: '100 Flüssige Mittel, 106 Kurzfristig gehaltene Aktiven mit Börsenkurs', lines: { asset: 'cash' } },
  { from: 1100, to: 1139, group: '110 Forderungen aus Lieferungen und Leistungen', lines: { asset: 'tradeReceivables' } },
  { from: 1140, to: 1199, group: '114 Übrige kurzfristige Forderungen', lines: { asset: 'otherReceivables' } },
  { from: 1200, to: 1299, group: '120 Vorräte und nicht fakturierte Dienstleistungen', lines: { asset: 'inventories' } },
  { from: 1300, to: 1399, group: '130 Aktive Rechnungsabgrenzungen', lines: { asset: 'prepaidExpenses' } },
  // 14 Anlagevermögen
  { from: 1400, to: 1479, group: '140 Finanzanlagen', lines: { asset: 'financialAssets' } },
  { from: 1480, to: 1499, group: '148 Beteiligungen', lines: { asset: 'participations' } },
  { from: 1500, to: 1699, group: '150 Mobile Sachanlagen, 160 Immobile Sachanlagen', lines: { asset: 'tangibleAssets' } },
  { from: 1700, to: 1799, group: '170 Immaterielle Werte', lines: { asset: 'intangibleAssets' } },
  { from: 1800, to: 1899, group: '180 Nicht einbezahltes Grund-, Gesellschafter- oder Stiftungskapital', lines: { asset: 'unpaidCapital' } },
  // 2 Passiven — 20 kurzfristiges Fremdkapital
  { from: 2000, to: 2099, group: '200 Verbindlichkeiten aus Lieferungen und Leistungen', lines: { liability: 'tradePayables' } },
  { from: 2100, to: 2199, group: '210 Kurzfristige verzinsliche Verbindlichkeiten', lines: { liability: 'shortTermInterestBearing' } },
  { from: 2200, to: 2299, group: '220 Übrige kurzfristige Verbindlichkeiten', lines: { liability: 'otherShortTermLiabilities' } },
  { from: 2300, to: 2399, group: '230 Passive Rechnungsabgrenzungen und kurzfristige Rückstellungen', lines: { liability: 'accruedLiabilities' } },
  // 24 langfristiges Fremdkapital
  { from: 2400, to: 2499, group: '240 Langfristige verzinsliche Verbindlichkeiten', lines: { liability: 'longTermInterestBearing' } },
  { from: 2500, to: 2599, group: '250 Übrige langfristige Verbindlichkeiten', lines: { liability: 'otherLongTermLiabilities' } },
  { from: 2600, to: 2699, group: '260 Rückstellungen sowie vom Gesetz vorgesehene ähnliche Positionen', lines: { liability: 'provisions' } },
  // 28 Eigenkapital
  { from: 2800, to: 2899, group: '280 Grund-, Gesellschafter- oder Stiftungskapital', lines: { equity: 'shareCapital' } },
  { from: 2900, to: 2949, group: '290 Reserven: 2900 Gesetzliche Kapitalreserve (2930, 2940 with it)', lines: { equity: 'statutoryCapitalReserve' } },
  { from: 2950, to: 2959, group: '290 Reserven: 2950 Gesetzliche Gewinnreserve', lines: { equity: 'statutoryRetainedEarnings' } },
  { from: 2960, to: 2969, group: '290 Reserven: 2960 Freiwillige Gewinnreserven', lines: { equity: 'voluntaryRetainedEarnings' } },
  { from: 2970, to: 2978, group: '290 Reserven: 2970 Gewinn- oder Verlustvortrag', lines: { equity: 'profitCarriedForward' } },
  { from: 2979, to: 2979, group: '290 Reserven: 2979 Jahresgewinn oder Jahresverlust', lines: { equity: 'annualResult' } },
  { from: 2980, to: 2989, group: '290 Reserven: 2980 Eigene Kapitalanteile', lines: { equity: 'ownShares' } },
  // 3 Betrieblicher Ertrag aus Lieferungen und Leistungen (30–37 Erlöse, 38 Erlösminderungen)
  { from: 3000, to: 3899, group: '30–38 Erlöse aus Lieferungen und Leistungen, Erlösminderungen', lines: { revenue: 'netRevenue' } },
  { from: 3900, to: 3999, group: '39 Bestandesänderungen an unfertigen und fertigen Erzeugnissen', lines: { revenue: 'inventoryChange' } },
  // 4 Aufwand für Material, Handelswaren, Dienstleistungen und Energie
  { from: 4000, to: 4999, group: '4 Aufwand für Material, Handelswaren, Dienstleistungen und Energie', lines: { expense: 'materialExpense' } },
  // 5 Personalaufwand
  { from: 5000, to: 5999, group: '5 Personalaufwand', lines: { expense: 'personnelExpense' } },
  // 6 Übriger betrieblicher Aufwand, Abschreibungen und Wertberichtigungen sowie Finanzergebnis
  { from: 6000, to: 6799, group: '60–67 Übriger betrieblicher Aufwand', lines: { expense: 'otherOperatingExpenses' } },
  { from: 6800, to: 6899, group: '68 Abschreibungen und Wertberichtigungen auf Positionen des Anlagevermögens', lines: { expense: 'depreciation' } },
  { from: 6900, to: 6999, group: '69 Finanzaufwand (690) und Finanzertrag (695)', lines: { expense: 'financialExpense', revenue: 'financialIncome' } },
  // 7 Betrieblicher Nebenerfolg (operating: before EBIT)
  { from: 7000, to: 7999, group: '7 Betrieblicher Nebenerfolg', lines: { revenue: 'otherOperatingIncome', expense: 'otherOperatingExpenses' } },
  // 8 Betriebsfremder, ausserordentlicher, einmaliger und periodenfremder Aufwand und Ertrag, direkte Steuern
  { from: 8000, to: 8499, group: '80 Betriebsfremder Aufwand und Ertrag', lines: { expense: 'nonOperatingExpense', revenue: 'nonOperatingIncome' } },
  { from: 8500, to: 8899, group: '85 Ausserordentlicher, einmaliger, 87 periodenfremder Aufwand und Ertrag', lines: { expense: 'extraordinaryExpense', revenue: 'extraordinaryIncome' } },
  { from: 8900, to: 8999, group: '89 Direkte Steuern (a refund booked as revenue lowers them)', lines: { expense: 'directTaxes', revenue: 'directTaxes' } },
];

/** The line of an account that fits no range, by its type (OR 959a Abs. 3, 959b Abs. 3: further lines). */
export const LINE_BY_TYPE: Record<Kind, LineKey> = {
  asset: 'otherCurrentAssets',
  liability: 'otherShortTermLiabilities',
  equity: 'otherEquity',
  revenue: 'otherOperatingIncome',
  expense: 'otherOperatingExpenses',
};

/** Whether an account of this type is on the balance sheet (else on the income statement). */
export const isBalanceSheetType = (typeId: number): boolean => typeId === AccountType.assets || typeId === AccountType.liability || typeId === AccountType.equity;

/**
 * The statement line of a ledger account: by the range of its number's first four digits when the
 * range has a line for its type, else by its type alone. An unknown type id counts as an expense,
 * like the spec's default class (spec §9).
 */
export function statementLineOf(account: { number: string; typeId: number }): LineKey {
  const kind = KIND_OF_TYPE[account.typeId as AccountTypeId] ?? 'expense';
  if (/^\d{4,}$/.test(account.number)) {
    const prefix = Number(account.number.slice(0, 4));
    const range = ACCOUNT_RANGES.find((r) => prefix >= r.from && prefix <= r.to);
    const line = range?.lines[kind];
    if (line) return line;
  }
  return LINE_BY_TYPE[kind];
}
