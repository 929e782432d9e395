/**
 * The texts of the ESTV VAT return form (MWST-Abrechnung / décompte TVA / rendiconto IVA, version
 * valid since 2024) in the four languages Bilan prints: the section titles and each figure's label,
 * shortened where the form adds references to other forms. English from the ESTV figure list as
 * kept in shared/data/vat/mwst_form_ziffern.json.
 */
import type { VatMethod, VatTaxLine } from './vat-return.js';

export type VatLanguage = 'en' | 'de' | 'fr' | 'it';

type FigureLabels = Record<string, string>;

export const VAT_FIGURE_LABELS: Record<VatLanguage, FigureLabels> = {
  en: {
    '200': 'Total amount of agreed or collected consideration incl. opted supplies, transfers in the notification procedure and supplies abroad (worldwide turnover)',
    '205': 'Consideration in 200 from supplies exempt without credit (art. 21) for which the option (art. 22) was exercised',
    '220': 'Supplies exempt from tax (e.g. exports, art. 23), supplies to beneficiaries exempt from liability (art. 107 para. 1 lit. a)',
    '221': 'Supplies provided abroad (place of supply abroad)',
    '225': 'Transfer of supplies in the notification procedure (art. 38, form 764)',
    '230': 'Supplies on Swiss territory exempt without credit (art. 21) without option (art. 22)',
    '235': 'Reduction of consideration (discounts, rebates etc.)',
    '280': 'Miscellaneous (e.g. land value, purchase prices under margin taxation)',
    '289': 'Deductions (total 220 to 280)',
    '299': 'Taxable turnover (200 minus 289)',
    '399': 'Total amount of tax due',
    '400': 'Input tax on cost of materials and supplies of services',
    '405': 'Input tax on investments and other operating costs',
    '410': 'De-taxation (art. 32)',
    '415': 'Correction of the input tax deduction: mixed use (art. 30), own use (art. 31)',
    '420': 'Reduction of the input tax deduction: non-consideration such as subsidies, tourist charges (art. 33 para. 2)',
    '479': 'Total 400 to 420',
    '470': 'Tax credit (forms 1050 / 1055)',
    '500': 'Amount payable',
    '510': 'Credit in favour of the taxable person',
    '900': 'Subsidies, tourist funds collected by tourist offices, contributions to waste and water plants (art. 18 para. 2 lit. a–c)',
    '910': 'Donations, dividends, payments of damages etc. (art. 18 para. 2 lit. d–l)',
  },
  de: {
    '200': 'Total der vereinbarten bzw. vereinnahmten Entgelte, inkl. optierte Leistungen, Entgelte aus Übertragungen im Meldeverfahren sowie aus Leistungen im Ausland (weltweiter Umsatz)',
    '205': 'In Ziffer 200 enthaltene Entgelte aus von der Steuer ausgenommenen Leistungen (Art. 21), für welche nach Art. 22 optiert wird',
    '220': 'Von der Steuer befreite Leistungen (u.a. Exporte, Art. 23), von der Steuer befreite Leistungen an begünstigte Einrichtungen und Personen (Art. 107 Abs. 1 Bst. a)',
    '221': 'Leistungen im Ausland (Ort der Leistung im Ausland)',
    '225': 'Übertragung im Meldeverfahren (Art. 38, Formular 764)',
    '230': 'Von der Steuer ausgenommene Inlandleistungen (Art. 21), für die nicht nach Art. 22 optiert wird',
    '235': 'Entgeltsminderungen wie Skonti, Rabatte usw.',
    '280': 'Diverses (z.B. Wert des Bodens, Ankaufspreise Margenbesteuerung)',
    '289': 'Abzüge (Total Ziff. 220 bis 280)',
    '299': 'Steuerbarer Gesamtumsatz (Ziff. 200 abzüglich Ziff. 289)',
    '399': 'Total geschuldete Steuer',
    '400': 'Vorsteuer auf Material- und Dienstleistungsaufwand',
    '405': 'Vorsteuer auf Investitionen und übrigem Betriebsaufwand',
    '410': 'Einlageentsteuerung (Art. 32)',
    '415': 'Vorsteuerkorrekturen: gemischte Verwendung (Art. 30), Eigenverbrauch (Art. 31)',
    '420': 'Vorsteuerkürzungen: Nicht-Entgelte wie Subventionen, Tourismusabgaben (Art. 33 Abs. 2)',
    '479': 'Total Ziff. 400 bis 420',
    '470': 'Steueranrechnung (Formulare 1050 / 1055)',
    '500': 'Zu bezahlender Betrag',
    '510': 'Guthaben der steuerpflichtigen Person',
    '900': 'Subventionen, durch Kurvereine eingenommene Tourismusabgaben, Entsorgungs- und Wasserwerkbeiträge (Bst. a–c)',
    '910': 'Spenden, Dividenden, Schadenersatz usw. (Bst. d–l)',
  },
  fr: {
    '200': 'Total des contre-prestations convenues ou reçues, y c. prestations imposées par option, transferts selon la procédure de déclaration et prestations à l’étranger (chiffre d’affaires mondial)',
    '205': 'Contre-prestations déclarées sous ch. 200 provenant de prestations exclues du champ de l’impôt (art. 21) pour lesquelles il a été opté (art. 22)',
    '220': 'Prestations exonérées (p. ex. exportations, art. 23), prestations exonérées à des institutions et personnes bénéficiaires (art. 107, al. 1, let. a)',
    '221': 'Prestations fournies à l’étranger (lieu de la prestation à l’étranger)',
    '225': 'Transferts avec la procédure de déclaration (art. 38, formulaire n° 764)',
    '230': 'Prestations exclues du champ de l’impôt (art. 21) réalisées en Suisse pour lesquelles il n’a pas été opté (art. 22)',
    '235': 'Diminutions de la contre-prestation telles que rabais, escomptes, etc.',
    '280': 'Divers (p. ex. valeur du terrain, prix d’achat en cas d’imposition de la marge)',
    '289': 'Déductions (total ch. 220 à 280)',
    '299': 'Chiffre d’affaires imposable (ch. 200 moins ch. 289)',
    '399': 'Total de l’impôt dû',
    '400': 'Impôt préalable grevant les coûts en matériel et en prestations de services',
    '405': 'Impôt préalable grevant les investissements et autres charges d’exploitation',
    '410': 'Dégrèvement ultérieur de l’impôt préalable (art. 32)',
    '415': 'Corrections de l’impôt préalable : double affectation (art. 30), prestations à soi-même (art. 31)',
    '420': 'Réductions de la déduction de l’impôt préalable : subventions, taxes touristiques, etc. (art. 33, al. 2)',
    '479': 'Total ch. 400 à 420',
    '470': 'Imputation de l’impôt (formulaires 1050 / 1055)',
    '500': 'Montant à payer',
    '510': 'Solde en faveur de l’assujetti',
    '900': 'Subventions, taxes touristiques perçues par les offices du tourisme, contributions aux établissements d’élimination des déchets et d’approvisionnement en eau (let. a à c)',
    '910': 'Dons, dividendes, dédommagements, etc. (let. d à l)',
  },
  it: {
    '200': 'Totale delle controprestazioni convenute o ricevute, incluse quelle per prestazioni optate, trasferimenti mediante procedura di notifica e prestazioni all’estero (cifra d’affari mondiale)',
    '205': 'Controprestazioni contenute nella cifra 200 per prestazioni escluse dall’imposta (art. 21) per le quali si è optato (art. 22)',
    '220': 'Prestazioni esenti dall’imposta (ad es. esportazioni, art. 23), prestazioni esenti a beneficiari istituzionali e persone beneficiarie (art. 107 cpv. 1 lett. a)',
    '221': 'Prestazioni all’estero (luogo della prestazione all’estero)',
    '225': 'Trasferimento mediante procedura di notifica (art. 38, modulo n. 764)',
    '230': 'Prestazioni escluse dall’imposta (art. 21) effettuate in Svizzera per le quali non si è optato (art. 22)',
    '235': 'Diminuzioni della controprestazione quali sconti, ribassi ecc.',
    '280': 'Diversi (ad es. valore del terreno, prezzi d’acquisto in caso d’imposizione dei margini)',
    '289': 'Deduzioni (totale cifre 220 a 280)',
    '299': 'Cifra d’affari imponibile (cifra 200 meno cifra 289)',
    '399': 'Totale dell’imposta dovuta',
    '400': 'Imposta precedente su costi del materiale e delle prestazioni di servizi',
    '405': 'Imposta precedente su investimenti e altri costi d’esercizio',
    '410': 'Sgravio fiscale successivo (art. 32)',
    '415': 'Correzioni dell’imposta precedente: doppia utilizzazione (art. 30), consumo proprio (art. 31)',
    '420': 'Riduzioni della deduzione dell’imposta precedente: sussidi, tasse turistiche ecc. (art. 33 cpv. 2)',
    '479': 'Totale cifre 400 a 420',
    '470': 'Computo dell’imposta (moduli 1050 / 1055)',
    '500': 'Importo da pagare',
    '510': 'Credito del contribuente',
    '900': 'Sussidi, tasse turistiche riscosse da enti turistici, contributi per lo smaltimento dei rifiuti e l’approvvigionamento idrico (lett. a–c)',
    '910': 'Doni, dividendi, risarcimenti dei danni ecc. (lett. d–l)',
  },
};

interface FormTexts {
  title: Record<VatMethod, string>;
  sections: { turnover: string; tax: string; other: string };
  submission: Record<1 | 2 | 3, string>;
  basis: { agreed: string; received: string };
  period: string;
  vatNumber: string;
  turnover: string;
  tax: string;
  rate: string;
  figure: string;
  standard: string;
  reduced: string;
  accommodation: string;
  acquisition: string;
  netRate: string;
  since2024: string;
  until2023: string;
  before2018: string;
  generated: string;
  page: string;
}

export const VAT_FORM_TEXTS: Record<VatLanguage, FormTexts> = {
  en: {
    title: { effective: 'VAT return — effective method', net: 'VAT return — net tax rate method' },
    sections: { turnover: 'I. Turnover', tax: 'II. Tax calculation', other: 'III. Other cash flows (art. 18 para. 2)' },
    submission: { 1: 'Original return', 2: 'Correction return', 3: 'Yearly reconciliation' },
    basis: { agreed: 'agreed consideration', received: 'received consideration' },
    period: 'Period',
    vatNumber: 'VAT no.',
    turnover: 'Turnover CHF',
    tax: 'Tax CHF',
    rate: 'Rate',
    figure: 'Figure',
    standard: 'Standard rate',
    reduced: 'Reduced rate',
    accommodation: 'Accommodation rate',
    acquisition: 'Acquisition tax',
    netRate: 'Net tax rate',
    since2024: 'supplies from 01.01.2024',
    until2023: 'supplies 2018 to 31.12.2023',
    before2018: 'supplies up to 31.12.2017',
    generated: 'Generated',
    page: 'Page',
  },
  de: {
    title: { effective: 'MWST-Abrechnung — effektive Methode', net: 'MWST-Abrechnung — Saldosteuersatzmethode' },
    sections: { turnover: 'I. Umsatz', tax: 'II. Steuerberechnung', other: 'III. Andere Mittelflüsse (Art. 18 Abs. 2)' },
    submission: { 1: 'Abrechnung', 2: 'Korrekturabrechnung', 3: 'Jahresabstimmung' },
    basis: { agreed: 'vereinbarte Entgelte', received: 'vereinnahmte Entgelte' },
    period: 'Periode',
    vatNumber: 'MWST-Nr.',
    turnover: 'Leistungen CHF',
    tax: 'Steuer CHF',
    rate: 'Satz',
    figure: 'Ziffer',
    standard: 'Normalsatz',
    reduced: 'Reduzierter Satz',
    accommodation: 'Beherbergungssatz',
    acquisition: 'Bezugsteuer',
    netRate: 'Saldosteuersatz',
    since2024: 'Leistungen ab 01.01.2024',
    until2023: 'Leistungen 2018 bis 31.12.2023',
    before2018: 'Leistungen bis 31.12.2017',
    generated: 'Erstellt',
    page: 'Seite',
  },
  fr: {
    title: { effective: 'Décompte TVA — méthode effective', net: 'Décompte TVA — méthode des taux de la dette fiscale nette' },
    sections: { turnover: 'I. Chiffre d’affaires', tax: 'II. Calcul de l’impôt', other: 'III. Autres flux de trésorerie (art. 18, al. 2)' },
    submission: { 1: 'Décompte', 2: 'Décompte rectificatif', 3: 'Concordance annuelle' },
    basis: { agreed: 'contre-prestations convenues', received: 'contre-prestations reçues' },
    period: 'Période',
    vatNumber: 'N° TVA',
    turnover: 'Prestations CHF',
    tax: 'Impôt CHF',
    rate: 'Taux',
    figure: 'Chiffre',
    standard: 'Taux normal',
    reduced: 'Taux réduit',
    accommodation: 'Taux spécial pour l’hébergement',
    acquisition: 'Impôt sur les acquisitions',
    netRate: 'Taux de la dette fiscale nette',
    since2024: 'prestations dès le 01.01.2024',
    until2023: 'prestations 2018 au 31.12.2023',
    before2018: 'prestations jusqu’au 31.12.2017',
    generated: 'Établi le',
    page: 'Page',
  },
  it: {
    title: { effective: 'Rendiconto IVA — metodo effettivo', net: 'Rendiconto IVA — metodo delle aliquote saldo' },
    sections: { turnover: 'I. Cifra d’affari', tax: 'II. Calcolo dell’imposta', other: 'III. Altri flussi di mezzi finanziari (art. 18 cpv. 2)' },
    submission: { 1: 'Rendiconto', 2: 'Rendiconto correttivo', 3: 'Concordanza annuale' },
    basis: { agreed: 'controprestazioni convenute', received: 'controprestazioni ricevute' },
    period: 'Periodo',
    vatNumber: 'N. IVA',
    turnover: 'Prestazioni CHF',
    tax: 'Imposta CHF',
    rate: 'Aliquota',
    figure: 'Cifra',
    standard: 'Aliquota normale',
    reduced: 'Aliquota ridotta',
    accommodation: 'Aliquota speciale per l’alloggio',
    acquisition: 'Imposta sull’acquisto',
    netRate: 'Aliquota saldo',
    since2024: 'prestazioni dal 01.01.2024',
    until2023: 'prestazioni 2018 al 31.12.2023',
    before2018: 'prestazioni fino al 31.12.2017',
    generated: 'Allestito il',
    page: 'Pagina',
  },
};

/** The label of a section II row: "Standard rate 8.1 % (supplies from 01.01.2024)", "Acquisition tax", "Net tax rate 6.2 %". */
export function vatTaxLineLabel(line: Pick<VatTaxLine, 'ziffer' | 'kind' | 'ratePercent'>, lang: VatLanguage = 'en'): string {
  const t = VAT_FORM_TEXTS[lang];
  const percent = `${lang === 'en' ? line.ratePercent : line.ratePercent.replace('.', ',')} %`;
  // 322/332 hold supplies from 2024 at today's approved rates, 321/331 older supplies at the rates approved then.
  if (line.kind === 'net') return `${t.netRate} ${percent} (${line.ziffer.endsWith('2') ? t.since2024 : t.until2023})`;
  const era = line.ziffer.endsWith('3') ? t.since2024 : line.ziffer.endsWith('2') ? t.until2023 : t.before2018;
  if (line.kind === 'acquisition') return `${t.acquisition} ${percent} (${era})`;
  const type = line.ziffer.startsWith('30') ? t.standard : line.ziffer.startsWith('31') ? t.reduced : line.ziffer.startsWith('34') ? t.accommodation : t.standard;
  return `${type} ${percent} (${era})`;
}
