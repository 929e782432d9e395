/**
 * The validation messages in German, French and Italian (issue 17 §3, decision 032). The English
 * texts stay the keys and the contract (spec §5); a person whose language is de, fr or it reads
 * them translated — the web for what it checks itself, the server for the `{ error, fields }` of a
 * 400 by the request's `Accept-Language`. A message without a translation stays English.
 */
import { validationMessages as m } from './messages.js';

export type MessageLanguage = 'de' | 'fr' | 'it' | 'en';
type Translations = Readonly<Record<'de' | 'fr' | 'it', string>>;

const tr = (de: string, fr: string, it: string): Translations => ({ de, fr, it });

/** Fixed messages, keyed by their English text. */
const EXACT: ReadonlyMap<string, Translations> = new Map<string, Translations>([
  [m.fieldRequired, tr('Dieses Feld ist erforderlich', 'Ce champ est obligatoire', 'Questo campo è obbligatorio')],
  [m.arrayExpected, tr('Liste erwartet', 'liste attendue', 'elenco atteso')],
  [m.keyNotAllowed, tr('dieser Schlüssel ist nicht erlaubt', 'cette clé ne peut pas être incluse', 'questa chiave non può essere inclusa')],
  [m.emailWhitespace, tr('die E-Mail-Adresse darf keine Leerzeichen enthalten (weder davor noch danach)', "l'adresse e-mail ne doit pas contenir d'espace (ni avant ni après)", "l'indirizzo e-mail non deve contenere spazi (né prima né dopo)")],
  [m.emailInvalid, tr('E-Mail-Adresse ungültig', 'adresse e-mail invalide', 'indirizzo e-mail non valido')],
  [m.uuidInvalid, tr('UUID ungültig', 'UUID invalide', 'UUID non valido')],
  [m.passwordTooShort, tr('Passwort kürzer als 8 Zeichen', 'mot de passe de moins de 8 caractères', 'password più corta di 8 caratteri')],
  [m.mustBeInteger, tr('muss eine ganze Zahl sein', 'doit être un nombre entier', 'deve essere un numero intero')],
  [m.negativeNotAccepted, tr('negative Zahlen sind nicht erlaubt', 'les nombres négatifs ne sont pas acceptés', 'i numeri negativi non sono accettati')],
  [m.idMustBePositive, tr('die ID muss grösser als 0 sein', "l'ID doit être supérieur à 0", "l'ID deve essere maggiore di 0")],
  [m.fieldMustBeGiven, tr('Dieses Feld muss angegeben werden', 'Ce champ doit être renseigné', 'Questo campo deve essere indicato')],
  [m.accountMustNotBeEmpty, tr('Das Konto darf nicht leer sein', 'Le compte ne doit pas être vide', 'Il conto non deve essere vuoto')],
  [m.typeMustBeGiven, tr('Der Typ muss angegeben werden', 'Le type doit être indiqué', 'Il tipo deve essere indicato')],
  [m.ibanMustNotBeEmpty, tr('Die IBAN darf nicht leer sein', "L'IBAN ne doit pas être vide", "L'IBAN non deve essere vuoto")],
  [m.publicAddressMustNotBeEmpty, tr('Die öffentliche Adresse darf nicht leer sein', "L'adresse publique ne doit pas être vide", "L'indirizzo pubblico non deve essere vuoto")],
  [m.ibanWronglyFormatted, tr('Die IBAN ist falsch formatiert', "L'IBAN est mal formaté", "L'IBAN non è formattato correttamente")],
  [m.qrIbanInvalid, tr('Die QR-IBAN ist ungültig', "Le QR-IBAN n'est pas valable", 'Il QR-IBAN non è valido')],
  [m.bicWronglyFormatted, tr('Der BIC ist falsch formatiert', 'Le BIC est mal formaté', 'Il BIC non è formattato correttamente')],
  [m.vatTooHigh, tr('Die MWST darf 99 % nicht übersteigen', 'La TVA ne peut pas dépasser 99 %', "L'IVA non può superare il 99 %")],
  [m.vatTooLow, tr('Die MWST darf nicht unter 1 % liegen', 'La TVA ne peut pas être inférieure à 1 %', "L'IVA non può essere inferiore all'1 %")],
  [m.defaultCurrencyMustBeGiven, tr('Die Standardwährung muss angegeben werden', 'La monnaie par défaut doit être indiquée', 'La valuta predefinita deve essere indicata')],
  [m.dateInvalid, tr('Datum ungültig', 'date invalide', 'data non valida')],
  [m.uidInvalid, tr('UID ungültig', 'IDE invalide', 'IDI non valido')],
  [m.countryUnknown, tr('Land unbekannt', 'pays inconnu', 'paese sconosciuto')],
  [m.currencyUnknown, tr('Währung unbekannt', 'monnaie inconnue', 'valuta sconosciuta')],
  [m.vatNotNumber, tr('die MWST muss eine Zahl mit höchstens 3 Dezimalstellen sein', 'la TVA doit être un nombre avec au plus 3 décimales', "l'IVA deve essere un numero con al massimo 3 decimali")],
  [m.ledgerCodeRange, tr('die Kontonummer muss zwischen 1000 und 9999 liegen', 'le numéro de compte doit être compris entre 1000 et 9999', 'il numero di conto deve essere compreso tra 1000 e 9999')],
  [m.ledgerCodeDuplicate, tr('Kontonummer bereits verwendet', 'numéro de compte déjà utilisé', 'numero di conto già utilizzato')],
  [m.bankAccountTypeInvalid, tr('der Typ muss IBAN (1) oder QR-Rechnung (2) sein', 'le type doit être IBAN (1) ou QR-facture (2)', 'il tipo deve essere IBAN (1) o QR-fattura (2)')],
  [m.paymentProfileTypeNotOffered, tr('Typ nicht unterstützt', 'type non pris en charge', 'tipo non supportato')],
  [m.phoneInvalid, tr('Telefonnummer ungültig', 'numéro de téléphone invalide', 'numero di telefono non valido')],
  [m.linkInvalid, tr('der Link muss eine http- oder https-Adresse sein', 'le lien doit être une adresse http ou https', 'il link deve essere un indirizzo http o https')],
  [m.barcodeInvalid, tr('der Strichcode muss aus 1 bis 80 druckbaren ASCII-Zeichen bestehen', 'le code-barres doit compter 1 à 80 caractères ASCII imprimables', 'il codice a barre deve avere da 1 a 80 caratteri ASCII stampabili')],
  [m.referenceNumberInvalid, tr('die Referenz muss eine QR-Referenz oder eine Creditor Reference (RF) mit gültiger Prüfziffer sein', 'la référence doit être une référence QR ou une référence créancier (RF) avec un chiffre de contrôle valable', 'il riferimento deve essere un riferimento QR o un riferimento creditore (RF) con cifra di controllo valida')],
  [m.amountInvalid, tr('der Betrag muss eine Dezimalzahl mit höchstens 2 Dezimalstellen sein, wahlweise mit Währungscode (1234.50 EUR)', 'le montant doit être un nombre décimal avec au plus 2 décimales, éventuellement suivi du code de la monnaie (1234.50 EUR)', "l'importo deve essere un numero decimale con al massimo 2 decimali, eventualmente con il codice della valuta (1234.50 EUR)")],
  [m.internalLinkInvalid, tr('der interne Link muss ein Pfad dieser Anwendung sein, der mit / beginnt', 'le lien interne doit être un chemin de cette application commençant par /', 'il link interno deve essere un percorso di questa applicazione che inizia con /')],
  [m.additionalPropertyTypeUnknown, tr('Typ der Zusatzangabe unbekannt', 'type de propriété supplémentaire inconnu', 'tipo di proprietà aggiuntiva sconosciuto')],
  [m.propertyNameTooLong, tr('der Name darf höchstens 100 Zeichen haben', 'le nom doit compter au plus 100 caractères', 'il nome deve avere al massimo 100 caratteri')],
  [m.propertyValueTooLong, tr('der Wert darf höchstens 2000 Zeichen haben', 'la valeur doit compter au plus 2000 caractères', 'il valore deve avere al massimo 2000 caratteri')],
  [m.publicAddressInvalid, tr('Die öffentliche Adresse ist ungültig', "L'adresse publique n'est pas valable", "L'indirizzo pubblico non è valido")],
  [m.bicOnlyForIban, tr('Der BIC wird nur mit IBAN und QR-Rechnung verwendet', "Le BIC ne s'utilise qu'avec l'IBAN et la QR-facture", "Il BIC si usa solo con IBAN e QR-fattura")],
  [m.accountNumberDigits, tr('die Kontonummer muss 4 bis 10 Ziffern haben', 'le numéro de compte doit compter 4 à 10 chiffres', 'il numero di conto deve avere da 4 a 10 cifre')],
  [m.accountTypeUnknown, tr('Kontotyp unbekannt', 'type de compte inconnu', 'tipo di conto sconosciuto')],
  [m.functionTypeUnknown, tr('Funktion unbekannt', 'fonction inconnue', 'funzione sconosciuta')],
  [m.descriptionTooLong, tr('die Beschreibung darf höchstens 500 Zeichen haben', 'la description doit compter au plus 500 caractères', 'la descrizione deve avere al massimo 500 caratteri')],
  [m.journalEntryTwoLines, tr('eine Buchung braucht mindestens zwei Zeilen', 'une écriture doit avoir au moins deux lignes', 'una registrazione deve avere almeno due righe')],
  [m.amountPositive, tr('der Betrag muss grösser als 0 sein', 'le montant doit être supérieur à 0', "l'importo deve essere maggiore di 0")],
  [m.directionInvalid, tr('die Richtung muss 1 (Soll) oder -1 (Haben) sein', 'le sens doit être 1 (débit) ou -1 (crédit)', 'la direzione deve essere 1 (dare) o -1 (avere)')],
  [m.exchangeRateInvalid, tr('der Wechselkurs muss eine Dezimalzahl grösser als 0 mit höchstens 10 Dezimalstellen sein', 'le cours de change doit être un nombre décimal supérieur à 0 avec au plus 10 décimales', 'il tasso di cambio deve essere un numero decimale maggiore di 0 con al massimo 10 decimali')],
  [m.debitCreditUnequal, tr('Soll und Haben müssen gleich sein', 'le débit et le crédit doivent être égaux', 'dare e avere devono essere uguali')],
  [m.expenseDescriptionRequired, tr('Spesen brauchen eine Beschreibung (was gekauft wurde): sie wird zum Buchungstext', 'une dépense doit avoir une description (ce qui a été acheté) : elle devient le texte de l’écriture', 'una spesa deve avere una descrizione (cosa è stato acquistato): diventa il testo della registrazione')],
  [m.expenseEmployeeRequired, tr('wählen Sie die mitarbeitende Person oder erfassen Sie eine neue mit Name und IBAN', 'choisissez le collaborateur ou ajoutez-en un avec nom et IBAN', 'scegliere il collaboratore o aggiungerne uno nuovo con nome e IBAN')],
  // Rules of the domain schemas that carry their own text.
  ['VAT must be a fraction such as 0.081', tr('Die MWST muss ein Bruch wie 0.081 sein', 'La TVA doit être une fraction comme 0.081', "L'IVA deve essere una frazione come 0.081")],
  ['VAT number invalid: CHE-123.456.789 MWST with a valid check digit', tr('MWST-Nummer ungültig: CHE-123.456.789 MWST mit gültiger Prüfziffer', 'numéro TVA invalide : CHE-123.456.789 TVA avec un chiffre de contrôle valable', 'numero IVA non valido: CHE-123.456.789 IVA con una cifra di controllo valida')],
  ['a VAT code has 1 to 12 capital letters, digits, - or _', tr('ein MWST-Code hat 1 bis 12 Grossbuchstaben, Ziffern, - oder _', 'un code TVA compte 1 à 12 majuscules, chiffres, - ou _', 'un codice IVA ha da 1 a 12 lettere maiuscole, cifre, - o _')],
  ['a Ziffer has 3 digits, e.g. 303', tr('eine Ziffer hat 3 Stellen, z. B. 303', 'un chiffre du décompte a 3 positions, p. ex. 303', 'una cifra del rendiconto ha 3 posizioni, p. es. 303')],
  ['a ledger account number (4 to 10 digits)', tr('eine Kontonummer (4 bis 10 Ziffern)', 'un numéro de compte (4 à 10 chiffres)', 'un numero di conto (da 4 a 10 cifre)')],
  ['account must be a ledger account number (4 to 10 digits)', tr('das Konto muss eine Kontonummer sein (4 bis 10 Ziffern)', 'le compte doit être un numéro de compte (4 à 10 chiffres)', 'il conto deve essere un numero di conto (da 4 a 10 cifre)')],
  ['an account number has 4 to 10 digits', tr('eine Kontonummer hat 4 bis 10 Ziffern', 'un numéro de compte compte 4 à 10 chiffres', 'un numero di conto ha da 4 a 10 cifre')],
  ['at most 200 characters', tr('höchstens 200 Zeichen', 'au plus 200 caractères', 'al massimo 200 caratteri')],
  ['at most 40 characters', tr('höchstens 40 Zeichen', 'au plus 40 caractères', 'al massimo 40 caratteri')],
  ['at most two approved net tax rates', tr('höchstens zwei bewilligte Saldosteuersätze', 'au plus deux taux de la dette fiscale nette autorisés', 'al massimo due aliquote saldo autorizzate')],
  ['basis must be agreed or received', tr('die Abrechnungsart muss vereinbart oder vereinnahmt sein', 'la base doit être convenue ou reçue', 'la base deve essere convenuta o ricevuta')],
  ['method must be effective or net', tr('die Methode muss effektiv oder Saldosteuersatz sein', 'la méthode doit être effective ou taux de la dette fiscale nette', 'il metodo deve essere effettivo o aliquota saldo')],
  ['must be a month 1 to 12', tr('muss ein Monat von 1 bis 12 sein', 'doit être un mois de 1 à 12', 'deve essere un mese da 1 a 12')],
  ['period must be monthly, quarterly, half-yearly or yearly', tr('die Periode muss monatlich, quartalsweise, halbjährlich oder jährlich sein', 'la période doit être mensuelle, trimestrielle, semestrielle ou annuelle', 'il periodo deve essere mensile, trimestrale, semestrale o annuale')],
  ['the discount cannot exceed 100 %', tr('der Rabatt darf 100 % nicht übersteigen', 'le rabais ne peut pas dépasser 100 %', 'lo sconto non può superare il 100 %')],
  ['the exchange rate must be a number greater than 0 (and below 1 000 000)', tr('der Wechselkurs muss eine Zahl grösser als 0 (und unter 1 000 000) sein', 'le cours de change doit être un nombre supérieur à 0 (et inférieur à 1 000 000)', 'il tasso di cambio deve essere un numero maggiore di 0 (e inferiore a 1 000 000)')],
  ['the file is empty', tr('die Datei ist leer', 'le fichier est vide', 'il file è vuoto')],
  ['the range must not end before it starts', tr('der Zeitraum darf nicht vor seinem Beginn enden', 'la période ne doit pas se terminer avant de commencer', 'il periodo non deve finire prima di iniziare')],
  ['net tax rates apply to the net tax rate method only', tr('Saldosteuersätze gelten nur für die Saldosteuersatzmethode', 'les taux de la dette fiscale nette ne valent que pour cette méthode', "le aliquote saldo valgono solo per il metodo dell'aliquota saldo")],
  ['the net tax rate method needs one or two approved rates', tr('die Saldosteuersatzmethode braucht einen oder zwei bewilligte Sätze', 'la méthode des taux de la dette fiscale nette exige un ou deux taux autorisés', "il metodo dell'aliquota saldo richiede una o due aliquote autorizzate")],
  ['vatEntry is given only with a vatCode', tr('vatEntry wird nur mit einem vatCode angegeben', "vatEntry n'est indiqué qu'avec un vatCode", 'vatEntry si indica solo con un vatCode')],
  ['invalid request', tr('ungültige Anfrage', 'requête invalide', 'richiesta non valida')],
]);

interface Pattern {
  readonly match: RegExp;
  readonly to: (groups: string[], language: 'de' | 'fr' | 'it') => string;
}

/** Messages with values (messages.ts: expectedTypeMessage, qrBill…Message, amount…Message). */
const PATTERNS: readonly Pattern[] = [
  {
    match: /^expected type (.+)$/,
    to: ([type], l) => ({ de: `Typ ${type} erwartet`, fr: `type ${type} attendu`, it: `tipo ${type} atteso` })[l],
  },
  {
    match: /^(.+) must be at most (\d+) characters for Swiss QR-bills$/,
    to: ([label, max], l) =>
      ({ de: `${label}: höchstens ${max} Zeichen für Schweizer QR-Rechnungen`, fr: `${label} : au plus ${max} caractères pour les QR-factures suisses`, it: `${label}: al massimo ${max} caratteri per le QR-fatture svizzere` })[l],
  },
  {
    match: /^Character (.+) cannot be used in Swiss payments$/,
    to: ([character], l) =>
      ({ de: `Das Zeichen ${character} ist im Schweizer Zahlungsverkehr nicht erlaubt`, fr: `Le caractère ${character} n'est pas admis dans les paiements suisses`, it: `Il carattere ${character} non è ammesso nei pagamenti svizzeri` })[l],
  },
  {
    match: /^amount must be between -(\S+) and (\S+)$/,
    to: ([min, max], l) => ({ de: `der Betrag muss zwischen -${min} und ${max} liegen`, fr: `le montant doit être compris entre -${min} et ${max}`, it: `l'importo deve essere compreso tra -${min} e ${max}` })[l],
  },
  {
    match: /^amount must be a decimal number with at most (\d+) decimals$/,
    to: ([n], l) => ({ de: `der Betrag muss eine Dezimalzahl mit höchstens ${n} Dezimalstellen sein`, fr: `le montant doit être un nombre décimal avec au plus ${n} décimales`, it: `l'importo deve essere un numero decimale con al massimo ${n} decimali` })[l],
  },
];

/**
 * `message` in `language`; an English message or one without a translation comes back as it is.
 * A message prefixed with its field path ('lines.0.amount: amount must be greater than 0', the
 * `error` of a 400) keeps the path and translates the rest.
 */
export function translateMessage(message: string, language: MessageLanguage): string {
  if (language === 'en') return message;
  const exact = EXACT.get(message);
  if (exact) return exact[language];
  for (const pattern of PATTERNS) {
    const found = pattern.match.exec(message);
    if (found) return pattern.to(found.slice(1), language);
  }
  const separator = message.indexOf(': ');
  if (separator > 0 && /^[\w.[\]-]+$/.test(message.slice(0, separator))) {
    const rest = message.slice(separator + 2);
    const translated = translateMessage(rest, language);
    if (translated !== rest) return `${message.slice(0, separator)}: ${translated}`;
  }
  return message;
}

/** Every fixed message that has translations (tests check that each validation message is here). */
export const translatedMessages = (): readonly string[] => [...EXACT.keys()];

/**
 * The language of an `Accept-Language` header that Bilan speaks (de, fr, it, en), by the header's
 * order and q-values; English when none matches or the header is absent (RFC 9110 §12.5.4).
 */
export function messageLanguageOf(header: string | undefined): MessageLanguage {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { code: (tag ?? '').trim().slice(0, 2).toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const found = ranked.find((entry) => ['de', 'fr', 'it', 'en'].includes(entry.code));
  return (found?.code as MessageLanguage | undefined) ?? 'en';
}
