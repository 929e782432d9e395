/**
 * The default reminder levels (decision 030), as Swiss SMEs using Bexio or Banana know them: a
 * friendly payment reminder 10 days after the due date without fee, a first dunning letter 20 days
 * later (CHF 20.00) and a second, last one 20 days after that (CHF 30.00) announcing debt
 * collection (Betreibung, SchKG). Texts per language with {{placeholders}} (see PLACEHOLDERS).
 */
export const DUNNING_LANGS = ['de', 'fr', 'it', 'en'] as const;
export type DunningLang = (typeof DUNNING_LANGS)[number];

export interface LevelText {
  title: string;
  body: string;
}

export interface DunningLevel {
  level: number;
  /** Level 1: days after the invoice's due date; level n > 1: days after the reminder of level n − 1. */
  days: number;
  /** Fee in the books' currency, 2 decimals, ≥ 0. */
  fee: string;
  texts: Record<DunningLang, LevelText>;
}

/** The placeholders a level's text may use. */
export const PLACEHOLDERS = {
  refNumber: 'invoice number',
  dateInvoice: 'invoice date (DD.MM.YYYY)',
  dateDue: 'due date (DD.MM.YYYY)',
  customer: "customer's name",
  total: 'invoice total with currency',
  open: 'open amount before this reminder, with currency',
  fee: "this reminder's fee, with currency",
  amountDue: 'amount due now (QR-bill), with currency',
  payBy: 'date to pay by (reminder date + 10 days)',
  sender: 'your company name',
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;

/** `text` with each `{{name}}` replaced; unknown placeholders stay as written (a typo stays visible). */
export function fillText(text: string, values: Partial<Record<Placeholder, string>>): string {
  return text.replace(/\{\{\s*([a-zA-Z]+)\s*\}\}/g, (whole, name: string) => values[name as Placeholder] ?? whole);
}

const closing = { de: 'Freundliche Grüsse', fr: 'Meilleures salutations', it: 'Cordiali saluti', en: 'Kind regards' };

export const DEFAULT_LEVELS: DunningLevel[] = [
  {
    level: 1,
    days: 10,
    fee: '0.00',
    texts: {
      de: {
        title: 'Zahlungserinnerung',
        body:
          'Sehr geehrte Damen und Herren\n\nSicher ist Ihnen entgangen, dass unsere Rechnung {{refNumber}} vom {{dateInvoice}} seit dem {{dateDue}} fällig ist. ' +
          'Offen sind noch {{open}}. Wir bitten Sie, {{amountDue}} bis zum {{payBy}} mit dem beiliegenden QR-Zahlteil zu überweisen.\n\n' +
          'Sollte sich Ihre Zahlung mit diesem Schreiben gekreuzt haben, betrachten Sie es bitte als gegenstandslos.\n\n' +
          `${closing.de}\n{{sender}}`,
      },
      fr: {
        title: 'Rappel de paiement',
        body:
          'Madame, Monsieur,\n\nSauf erreur de notre part, notre facture {{refNumber}} du {{dateInvoice}}, échue le {{dateDue}}, est encore ouverte pour {{open}}. ' +
          'Nous vous prions de verser {{amountDue}} d’ici au {{payBy}} au moyen de la section paiement QR ci-jointe.\n\n' +
          'Si votre paiement a croisé ce courrier, veuillez ne pas en tenir compte.\n\n' +
          `${closing.fr}\n{{sender}}`,
      },
      it: {
        title: 'Promemoria di pagamento',
        body:
          'Gentili signore e signori\n\nLa nostra fattura {{refNumber}} del {{dateInvoice}}, scaduta il {{dateDue}}, risulta ancora aperta per {{open}}. ' +
          'Vi preghiamo di versare {{amountDue}} entro il {{payBy}} con la sezione di pagamento QR allegata.\n\n' +
          'Se il vostro pagamento si è incrociato con questa lettera, vogliate considerarla nulla.\n\n' +
          `${closing.it}\n{{sender}}`,
      },
      en: {
        title: 'Payment reminder',
        body:
          'Dear Sir or Madam\n\nOur invoice {{refNumber}} of {{dateInvoice}}, due on {{dateDue}}, is still open for {{open}}. ' +
          'Please pay {{amountDue}} by {{payBy}} with the enclosed QR payment part.\n\n' +
          'If your payment has crossed this letter, please disregard it.\n\n' +
          `${closing.en}\n{{sender}}`,
      },
    },
  },
  {
    level: 2,
    days: 20,
    fee: '20.00',
    texts: {
      de: {
        title: '1. Mahnung',
        body:
          'Sehr geehrte Damen und Herren\n\nTrotz unserer Zahlungserinnerung ist unsere Rechnung {{refNumber}} vom {{dateInvoice}} noch nicht bezahlt: offen sind {{open}}. ' +
          'Für diese Mahnung berechnen wir eine Gebühr von {{fee}}. Bitte überweisen Sie {{amountDue}} bis zum {{payBy}}.\n\n' +
          `${closing.de}\n{{sender}}`,
      },
      fr: {
        title: '1er rappel',
        body:
          'Madame, Monsieur,\n\nMalgré notre rappel, notre facture {{refNumber}} du {{dateInvoice}} n’est pas encore payée : {{open}} restent ouverts. ' +
          'Nous facturons des frais de rappel de {{fee}}. Veuillez verser {{amountDue}} d’ici au {{payBy}}.\n\n' +
          `${closing.fr}\n{{sender}}`,
      },
      it: {
        title: '1° sollecito',
        body:
          'Gentili signore e signori\n\nNonostante il nostro promemoria, la fattura {{refNumber}} del {{dateInvoice}} non è ancora stata pagata: restano aperti {{open}}. ' +
          'Per questo sollecito addebitiamo una tassa di {{fee}}. Vi preghiamo di versare {{amountDue}} entro il {{payBy}}.\n\n' +
          `${closing.it}\n{{sender}}`,
      },
      en: {
        title: 'First dunning notice',
        body:
          'Dear Sir or Madam\n\nDespite our reminder, our invoice {{refNumber}} of {{dateInvoice}} is still unpaid: {{open}} are open. ' +
          'We charge a fee of {{fee}} for this notice. Please pay {{amountDue}} by {{payBy}}.\n\n' +
          `${closing.en}\n{{sender}}`,
      },
    },
  },
  {
    level: 3,
    days: 20,
    fee: '30.00',
    texts: {
      de: {
        title: '2. Mahnung',
        body:
          'Sehr geehrte Damen und Herren\n\nUnsere Rechnung {{refNumber}} vom {{dateInvoice}} ist trotz Mahnung noch immer offen ({{open}}). ' +
          'Wir berechnen eine weitere Gebühr von {{fee}}. Bitte überweisen Sie {{amountDue}} bis spätestens {{payBy}}; ' +
          'andernfalls leiten wir ohne weitere Mitteilung die Betreibung ein.\n\n' +
          `${closing.de}\n{{sender}}`,
      },
      fr: {
        title: '2e rappel',
        body:
          'Madame, Monsieur,\n\nNotre facture {{refNumber}} du {{dateInvoice}} est toujours ouverte ({{open}}) malgré notre rappel. ' +
          'Nous facturons des frais supplémentaires de {{fee}}. Veuillez verser {{amountDue}} au plus tard le {{payBy}} ; ' +
          'à défaut, nous introduirons une poursuite sans autre avis.\n\n' +
          `${closing.fr}\n{{sender}}`,
      },
      it: {
        title: '2° sollecito',
        body:
          'Gentili signore e signori\n\nLa nostra fattura {{refNumber}} del {{dateInvoice}} è ancora aperta ({{open}}) nonostante il sollecito. ' +
          'Addebitiamo un’ulteriore tassa di {{fee}}. Vi preghiamo di versare {{amountDue}} entro il {{payBy}}; ' +
          'in caso contrario avvieremo l’esecuzione senza ulteriore avviso.\n\n' +
          `${closing.it}\n{{sender}}`,
      },
      en: {
        title: 'Final dunning notice',
        body:
          'Dear Sir or Madam\n\nOur invoice {{refNumber}} of {{dateInvoice}} is still open ({{open}}) despite our notice. ' +
          'We charge a further fee of {{fee}}. Please pay {{amountDue}} by {{payBy}} at the latest; ' +
          'otherwise we will start debt collection proceedings without further notice.\n\n' +
          `${closing.en}\n{{sender}}`,
      },
    },
  },
];

/** Default accounts of the Swiss SME chart (chart-de.csv has no 'Mahngebühren' account). */
export const DEFAULT_FEE_ACCOUNT = { number: '3600', name: 'Übrige Erlöse aus Lieferungen und Leistungen' };
export const DEFAULT_INTEREST_ACCOUNT = { number: '6950', name: 'Finanzertrag' };
