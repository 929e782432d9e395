/**
 * The server's own 400 messages in German, French and Italian (issue 17 §3, decision 032). The
 * domain's catalog (`@bilan/domain` message-translations.ts) knows the shared validation messages
 * of the zod schemas; the messages the server modules write themselves (business rules, route
 * schemas, uploads) are here, so they stay out of the web's bundle. As there, the English text is
 * the key and the contract: a message without a translation, or a request in English, answers the
 * English text unchanged. The error handler (app.ts) translates every 4xx message this way, so the
 * patterns also cover the database triggers' texts (lock date, balance, document postings) that
 * fromDatabaseError passes on, and the bank reconciliation answers the reasons it stored in English
 * at import (`unmatched_reason`) through them. Texts the server composes for display (the accounting
 * checks) are written from templates instead: server-texts.ts.
 *
 * Terms as a Swiss accountant reads them (Bexio, Banana, Abacus): Buchung / écriture /
 * registrazione, Konto / compte / conto, Beleg / pièce / giustificativo, Lieferantenrechnung /
 * facture fournisseur / fattura fornitore, Zahlungsauftrag / ordre de paiement / ordine di
 * pagamento, Sperre / verrouillage / blocco, Geschäftsjahr / exercice / esercizio; MWST / TVA / IVA.
 * Swiss German spelling ("ss", never "ß").
 *
 * `test/http/server-messages.test.ts` checks every entry (three languages, no "ß", the digits kept,
 * each pattern's example) and scans the sources so a new 400 message without a translation fails.
 */
import { translateMessage, type MessageLanguage } from '@bilan/domain';

type Translated = 'de' | 'fr' | 'it';
type Translations = Readonly<Record<Translated, string>>;

const tr = (de: string, fr: string, it: string): Translations => ({ de, fr, it });

/** Fixed messages, keyed by their exact English text. */
export const SERVER_MESSAGES: ReadonlyMap<string, Translations> = new Map<string, Translations>([
  // http: request shape, idempotency, uploads
  ['The body is nested too deeply', tr('Der Inhalt ist zu tief verschachtelt', 'Le contenu est trop profondément imbriqué', 'Il contenuto è annidato troppo in profondità')],
  ['must not nest arrays and objects more than 64 levels deep', tr('darf Listen und Objekte nicht tiefer als 64 Ebenen verschachteln', "ne doit pas imbriquer listes et objets sur plus de 64 niveaux", 'non deve annidare elenchi e oggetti per più di 64 livelli')],
  ['must not contain a NUL character', tr('darf kein NUL-Zeichen enthalten', 'ne doit pas contenir de caractère NUL', 'non deve contenere un carattere NUL')],
  ['The Idempotency-Key must be 1 to 255 printable ASCII characters', tr('Der Idempotency-Key muss aus 1 bis 255 druckbaren ASCII-Zeichen bestehen', "L'Idempotency-Key doit compter 1 à 255 caractères ASCII imprimables", "L'Idempotency-Key deve avere da 1 a 255 caratteri ASCII stampabili")],
  ['A request with this Idempotency-Key is still being processed; retry later', tr('Eine Anfrage mit diesem Idempotency-Key wird noch verarbeitet; bitte später erneut versuchen', "Une requête avec cet Idempotency-Key est encore en cours de traitement ; réessayez plus tard", "Una richiesta con questo Idempotency-Key è ancora in elaborazione; riprovare più tardi")],
  ['This Idempotency-Key was already used for another request; use a new key for a new request', tr('Dieser Idempotency-Key wurde schon für eine andere Anfrage verwendet; für eine neue Anfrage einen neuen Schlüssel verwenden', "Cet Idempotency-Key a déjà servi pour une autre requête ; utilisez une nouvelle clé pour une nouvelle requête", "Questo Idempotency-Key è già stato usato per un'altra richiesta; usare una nuova chiave per una nuova richiesta")],
  [
    'The request with this Idempotency-Key was carried out, but its answer was lost when the server stopped; look up the result instead of repeating the request',
    tr(
      'Die Anfrage mit diesem Idempotency-Key wurde ausgeführt, ihre Antwort ging aber verloren, als der Server anhielt; das Ergebnis nachsehen statt die Anfrage zu wiederholen',
      "La requête avec cet Idempotency-Key a été exécutée, mais sa réponse s'est perdue à l'arrêt du serveur ; vérifiez le résultat au lieu de répéter la requête",
      "La richiesta con questo Idempotency-Key è stata eseguita, ma la sua risposta è andata persa all'arresto del server; verificare il risultato invece di ripetere la richiesta",
    ),
  ],
  ['larger than 5 MB', tr('grösser als 5 MB', 'plus grand que 5 Mo', 'più grande di 5 MB')],
  ['the file is empty or not base64', tr('die Datei ist leer oder nicht base64-codiert', "le fichier est vide ou n'est pas en base64", 'il file è vuoto o non è in base64')],
  ['must be base64', tr('muss base64-codiert sein', 'doit être en base64', 'deve essere in base64')],
  ['a media type such as image/png', tr('ein Medientyp wie image/png', 'un type de média comme image/png', 'un tipo di media come image/png')],
  ['the body is empty: send the CSV text with content-type text/csv', tr('der Inhalt ist leer: senden Sie den CSV-Text mit content-type text/csv', 'le contenu est vide : envoyez le texte CSV avec content-type text/csv', 'il contenuto è vuoto: inviare il testo CSV con content-type text/csv')],
  // generic field rules
  ['must be given', tr('muss angegeben werden', 'doit être indiqué', 'deve essere indicato')],
  ['must not be empty', tr('darf nicht leer sein', 'ne doit pas être vide', 'non deve essere vuoto')],
  ['must be greater than 0', tr('muss grösser als 0 sein', 'doit être supérieur à 0', 'deve essere maggiore di 0')],
  ['must be from 0 to 10', tr('muss zwischen 0 und 10 liegen', 'doit être compris entre 0 et 10', 'deve essere compreso tra 0 e 10')],
  ['must be from 0 to 1000', tr('muss zwischen 0 und 1000 liegen', 'doit être compris entre 0 et 1000', 'deve essere compreso tra 0 e 1000')],
  ['must be an amount of 0 or more with at most 2 decimals', tr('muss ein Betrag von 0 oder mehr mit höchstens 2 Dezimalstellen sein', 'doit être un montant de 0 ou plus avec au plus 2 décimales', "deve essere un importo di 0 o più con al massimo 2 decimali")],
  ['must be an amount greater than 0 with at most 2 decimals', tr('muss ein Betrag grösser als 0 mit höchstens 2 Dezimalstellen sein', 'doit être un montant supérieur à 0 avec au plus 2 décimales', 'deve essere un importo maggiore di 0 con al massimo 2 decimali')],
  ['must be a quantity greater than 0 with at most 4 decimals', tr('muss eine Menge grösser als 0 mit höchstens 4 Dezimalstellen sein', 'doit être une quantité supérieure à 0 avec au plus 4 décimales', 'deve essere una quantità maggiore di 0 con al massimo 4 decimali')],
  ['must not be before dateFrom', tr('darf nicht vor dateFrom liegen', 'ne doit pas être antérieur à dateFrom', 'non deve essere anteriore a dateFrom')],
  ['must be a year (a number such as 2025)', tr('muss ein Jahr sein (eine Zahl wie 2025)', 'doit être une année (un nombre comme 2025)', 'deve essere un anno (un numero come 2025)')],
  ['year must be 1900 or later', tr('das Jahr muss 1900 oder später sein', "l'année doit être 1900 ou postérieure", "l'anno deve essere 1900 o successivo")],
  ['year must be 2299 or earlier', tr('das Jahr muss 2299 oder früher sein', "l'année doit être 2299 ou antérieure", "l'anno deve essere 2299 o precedente")],
  ['expected a date YYYY-MM-DD with a year from 1900 to 2300', tr('Datum JJJJ-MM-TT mit einem Jahr von 1900 bis 2300 erwartet', 'date AAAA-MM-JJ attendue avec une année de 1900 à 2300', "data AAAA-MM-GG attesa con un anno dal 1900 al 2300")],
  ['expected a period YYYY-MM (or MM.YYYY)', tr('Periode JJJJ-MM (oder MM.JJJJ) erwartet', 'période AAAA-MM (ou MM.AAAA) attendue', 'periodo AAAA-MM (o MM.AAAA) atteso')],
  ['at least one date', tr('mindestens ein Datum', 'au moins une date', 'almeno una data')],
  ['at most 24 dates', tr('höchstens 24 Daten', 'au plus 24 dates', 'al massimo 24 date')],
  ['at least one account', tr('mindestens ein Konto', 'au moins un compte', 'almeno un conto')],
  ['at most 500 accounts', tr('höchstens 500 Konten', 'au plus 500 comptes', 'al massimo 500 conti')],
  ['at most 65535', tr('höchstens 65535', 'au plus 65535', 'al massimo 65535')],
  ['at most ten years', tr('höchstens zehn Jahre', 'au plus dix ans', 'al massimo dieci anni')],
  ['listed twice', tr('doppelt aufgeführt', 'indiqué deux fois', 'indicato due volte')],
  ['not an e-mail address', tr('keine E-Mail-Adresse', "pas une adresse e-mail", 'non è un indirizzo e-mail')],
  ['country must be an ISO 3166 alpha-2 code', tr('das Land muss ein ISO-3166-Alpha-2-Code sein', 'le pays doit être un code ISO 3166 alpha-2', 'il paese deve essere un codice ISO 3166 alpha-2')],
  // identity, sign-in, two-factor
  ['Invalid UUID format', tr('UUID-Format ungültig', 'format UUID invalide', 'formato UUID non valido')],
  ['Invalid two-factor code.', tr('Ungültiger Zwei-Faktor-Code.', 'Code à deux facteurs invalide.', 'Codice a due fattori non valido.')],
  ['the code has 6 digits', tr('der Code hat 6 Ziffern', 'le code compte 6 chiffres', 'il codice ha 6 cifre')],
  ['Unknown secret url; ask for a new one', tr('Unbekannte Secret-URL; fordern Sie eine neue an', 'URL secrète inconnue ; demandez-en une nouvelle', 'URL segreta sconosciuta; richiederne una nuova')],
  ['The registration expired or was already used; please try again', tr('Die Registrierung ist abgelaufen oder wurde bereits verwendet; bitte versuchen Sie es erneut', "L'enregistrement a expiré ou a déjà été utilisé ; veuillez réessayer", 'La registrazione è scaduta o è già stata usata; riprovare')],
  ['expired or used', tr('abgelaufen oder verwendet', 'expiré ou utilisé', 'scaduto o usato')],
  ['could not be verified', tr('konnte nicht überprüft werden', "n'a pas pu être vérifié", 'non è stato possibile verificarlo')],
  ['expected base64url', tr('base64url erwartet', 'base64url attendu', 'base64url atteso')],
  ['SSO provider not recognized', tr('SSO-Anbieter nicht erkannt', 'fournisseur SSO non reconnu', 'provider SSO non riconosciuto')],
  ['Code expected', tr('Code erwartet', 'Code attendu', 'Codice atteso')],
  ['instance wrong', tr('Arbeitsbereich ungültig', 'espace de travail invalide', 'spazio di lavoro non valido')],
  ['the name may have at most 100 characters', tr('der Name darf höchstens 100 Zeichen haben', 'le nom peut compter au plus 100 caractères', 'il nome può avere al massimo 100 caratteri')],
  ['email invalid', tr('E-Mail-Adresse ungültig', 'adresse e-mail invalide', 'indirizzo e-mail non valido')],
  // instances, letterhead, companies
  ['Company not found: complete the company step first', tr('Firma nicht gefunden: schliessen Sie zuerst den Schritt Firma ab', "Entreprise introuvable : terminez d'abord l'étape de l'entreprise", "Azienda non trovata: completare prima il passo dell'azienda")],
  ['Each bank account needs its own ledger code', tr('Jedes Bankkonto braucht seine eigene Kontonummer', 'Chaque compte bancaire doit avoir son propre numéro de compte', 'Ogni conto bancario deve avere il proprio numero di conto')],
  ['a phone number of digits, spaces and + ( ) . / - (at most 40)', tr('eine Telefonnummer aus Ziffern, Leerzeichen und + ( ) . / - (höchstens 40)', 'un numéro de téléphone composé de chiffres, d’espaces et de + ( ) . / - (au plus 40)', 'un numero di telefono di cifre, spazi e + ( ) . / - (al massimo 40)')],
  ['a web address such as www.muster.ch or https://muster.ch', tr('eine Webadresse wie www.muster.ch oder https://muster.ch', 'une adresse web comme www.muster.ch ou https://muster.ch', 'un indirizzo web come www.muster.ch o https://muster.ch')],
  ['company must be given', tr('die Firma muss angegeben werden', "l'entreprise doit être indiquée", "l'azienda deve essere indicata")],
  ['company not found', tr('Firma nicht gefunden', 'entreprise introuvable', 'azienda non trovata')],
  ['search text must have at least 3 characters', tr('der Suchtext muss mindestens 3 Zeichen haben', 'le texte recherché doit compter au moins 3 caractères', 'il testo di ricerca deve avere almeno 3 caratteri')],
  // paging (db/paging.ts)
  ["cursor is not one of this list's cursors", tr('der Cursor gehört nicht zu dieser Liste', "le curseur n'appartient pas à cette liste", 'il cursore non appartiene a questo elenco')],
  // mail
  ['the mail server refused the user or app password', tr('der Mailserver hat den Benutzer oder das App-Passwort abgelehnt', "le serveur de messagerie a refusé l'utilisateur ou le mot de passe d'application", "il server di posta ha rifiutato l'utente o la password dell'app")],
  ['a host name or IP address', tr('ein Hostname oder eine IP-Adresse', 'un nom d’hôte ou une adresse IP', 'un nome host o un indirizzo IP')],
  // accounting
  ['a VAT code to split is posted one entry at a time (postJournalEntry)', tr('ein aufzuteilender MWST-Code wird Buchung für Buchung gebucht (postJournalEntry)', 'un code TVA à ventiler se comptabilise une écriture à la fois (postJournalEntry)', 'un codice IVA da ripartire si registra una registrazione alla volta (postJournalEntry)')],
  ['a figure of the form, e.g. 200 or 303', tr('eine Ziffer des Formulars, z. B. 200 oder 303', 'un chiffre du formulaire, p. ex. 200 ou 303', 'una cifra del modulo, p. es. 200 o 303')],
  ['an entry cannot be merged with itself', tr('eine Buchung kann nicht mit sich selbst zusammengeführt werden', 'une écriture ne peut pas être fusionnée avec elle-même', 'una registrazione non può essere unita a sé stessa')],
  ['give a date or an end entry', tr('geben Sie ein Datum oder eine letzte Buchung an', 'indiquez une date ou une écriture de fin', "indicare una data o una registrazione finale")],
  ['give either a date or an end entry, not both', tr('geben Sie entweder ein Datum oder eine letzte Buchung an, nicht beides', 'indiquez soit une date soit une écriture de fin, pas les deux', 'indicare una data o una registrazione finale, non entrambe')],
  ['date is required for a balance sheet', tr('date ist für eine Bilanz erforderlich', 'date est obligatoire pour un bilan', 'date è obbligatorio per un bilancio')],
  ['dateFrom is required for an income statement', tr('dateFrom ist für eine Erfolgsrechnung erforderlich', 'dateFrom est obligatoire pour un compte de résultat', 'dateFrom è obbligatorio per un conto economico')],
  ['dateTo is required for an income statement', tr('dateTo ist für eine Erfolgsrechnung erforderlich', 'dateTo est obligatoire pour un compte de résultat', 'dateTo è obbligatorio per un conto economico')],
  ['give compareFrom together with compareTo (both null: no prior-period column)', tr('geben Sie compareFrom zusammen mit compareTo an (beide null: keine Vorperiodenspalte)', 'indiquez compareFrom avec compareTo (les deux null : pas de colonne de la période précédente)', 'indicare compareFrom insieme a compareTo (entrambi null: nessuna colonna del periodo precedente)')],
  ['give compareTo together with compareFrom (both null: no prior-period column)', tr('geben Sie compareTo zusammen mit compareFrom an (beide null: keine Vorperiodenspalte)', 'indiquez compareTo avec compareFrom (les deux null : pas de colonne de la période précédente)', 'indicare compareTo insieme a compareFrom (entrambi null: nessuna colonna del periodo precedente)')],
  ['name must have at most 200 characters', tr('der Name darf höchstens 200 Zeichen haben', 'le nom doit compter au plus 200 caractères', 'il nome deve avere al massimo 200 caratteri')],
  ['No free number between 1001 and 1019 is left for the cash account (Kasse); choose another number', tr('Für das Kassenkonto (Kasse) ist keine Nummer zwischen 1001 und 1019 mehr frei; wählen Sie eine andere Nummer', 'Aucun numéro entre 1001 et 1019 n’est libre pour le compte de caisse (Kasse) ; choisissez un autre numéro', 'Nessun numero tra 1001 e 1019 è libero per il conto cassa (Kasse); scegliere un altro numero')],
  ['group number must have 1 to 3 digits', tr('die Gruppennummer muss 1 bis 3 Ziffern haben', 'le numéro de groupe doit compter 1 à 3 chiffres', 'il numero del gruppo deve avere da 1 a 3 cifre')],
  ['a zero-rate code posts no tax: no account', tr('ein Code zum Nullsatz bucht keine Steuer: kein Konto', 'un code au taux zéro ne comptabilise pas de taxe : pas de compte', 'un codice ad aliquota zero non registra imposta: nessun conto')],
  ['the account the tax goes to must be given', tr('das Konto, auf das die Steuer gebucht wird, muss angegeben werden', 'le compte sur lequel la taxe est comptabilisée doit être indiqué', "il conto su cui è registrata l'imposta deve essere indicato")],
  ['an acquisition tax posts its deduction: give the input tax account (1170 or 1171)', tr('eine Bezugsteuer bucht ihren Abzug: geben Sie das Vorsteuerkonto an (1170 oder 1171)', "un impôt sur les acquisitions comptabilise sa déduction : indiquez le compte d'impôt préalable (1170 ou 1171)", "un'imposta sull'acquisto registra la sua deduzione: indicare il conto dell'imposta precedente (1170 o 1171)")],
  ['only an acquisition tax has a deduction account', tr('nur eine Bezugsteuer hat ein Abzugskonto', 'seul un impôt sur les acquisitions a un compte de déduction', "solo un'imposta sull'acquisto ha un conto di deduzione")],
  ['an acquisition tax needs the Ziffer of its deduction (400 or 405)', tr('eine Bezugsteuer braucht die Ziffer ihres Abzugs (400 oder 405)', 'un impôt sur les acquisitions exige le chiffre de sa déduction (400 ou 405)', "un'imposta sull'acquisto richiede la cifra della sua deduzione (400 o 405)")],
  ['only an acquisition tax has a deduction Ziffer', tr('nur eine Bezugsteuer hat eine Abzugsziffer', 'seul un impôt sur les acquisitions a un chiffre de déduction', "solo un'imposta sull'acquisto ha una cifra di deduzione")],
  ['an acquisition tax is entered net (the price carries no Swiss VAT)', tr('eine Bezugsteuer wird netto erfasst (der Preis enthält keine Schweizer MWST)', 'un impôt sur les acquisitions se saisit net (le prix ne contient pas de TVA suisse)', "un'imposta sull'acquisto si registra al netto (il prezzo non contiene IVA svizzera)")],
  // invoicing, credit notes, quotes, recurring
  ['the due date cannot be before the invoice date', tr('das Fälligkeitsdatum darf nicht vor dem Rechnungsdatum liegen', "la date d'échéance ne peut pas être antérieure à la date de la facture", 'la data di scadenza non può essere anteriore alla data della fattura')],
  ['the validity date cannot be before the quote date', tr('das Gültigkeitsdatum darf nicht vor dem Offertdatum liegen', "la date de validité ne peut pas être antérieure à la date de l'offre", "la data di validità non può essere anteriore alla data dell'offerta")],
  ['VAT must be the instance rate or one of 0.081, 0.026, 0.038, 0', tr('die MWST muss der Satz des Arbeitsbereichs oder einer von 0.081, 0.026, 0.038, 0 sein', "la TVA doit être le taux de l'espace de travail ou l'un de 0.081, 0.026, 0.038, 0", "l'IVA deve essere l'aliquota dello spazio di lavoro o una di 0.081, 0.026, 0.038, 0")],
  ['choose one of your revenue ledger accounts (class 3)', tr('wählen Sie eines Ihrer Ertragskonten (Klasse 3)', 'choisissez un de vos comptes de produit (classe 3)', 'scegliere uno dei vostri conti ricavi (classe 3)')],
  ['the address must be one of the company', tr('die Adresse muss eine der Firma sein', "l'adresse doit être une adresse de l'entreprise", "l'indirizzo deve essere uno dell'azienda")],
  ['choose one of your own active payment profiles', tr('wählen Sie eine Ihrer eigenen aktiven Zahlungsverbindungen', 'choisissez un de vos propres profils de paiement actifs', 'scegliere uno dei vostri profili di pagamento attivi')],
  ['the payment profile must be an IBAN or QR bill account', tr('die Zahlungsverbindung muss ein IBAN- oder QR-Rechnungskonto sein', 'le profil de paiement doit être un compte IBAN ou QR-facture', 'il profilo di pagamento deve essere un conto IBAN o QR-fattura')],
  ['an invoice without lines cannot be sent', tr('eine Rechnung ohne Positionen kann nicht versendet werden', 'une facture sans lignes ne peut pas être envoyée', 'una fattura senza righe non può essere inviata')],
  ['a quote without lines cannot be sent', tr('eine Offerte ohne Positionen kann nicht versendet werden', 'une offre sans lignes ne peut pas être envoyée', "un'offerta senza righe non può essere inviata")],
  ['the invoice total must be greater than 0', tr('das Rechnungstotal muss grösser als 0 sein', 'le total de la facture doit être supérieur à 0', 'il totale della fattura deve essere maggiore di 0')],
  ['the amount received is given only when the invoice is paid', tr('der erhaltene Betrag wird nur angegeben, wenn die Rechnung bezahlt wird', "le montant reçu n'est indiqué que lorsque la facture est payée", "l'importo ricevuto si indica solo quando la fattura è pagata")],
  ['book the payment on a bank or cash account (an asset account)', tr('buchen Sie die Zahlung auf ein Bank- oder Kassenkonto (ein Aktivkonto)', 'comptabilisez le paiement sur un compte bancaire ou de caisse (un compte d’actif)', 'registrare il pagamento su un conto bancario o cassa (un conto attivo)')],
  ['give either full or lines, not both', tr('geben Sie entweder full oder lines an, nicht beides', 'indiquez soit full soit lines, pas les deux', 'indicare full o lines, non entrambi')],
  ['give the lines to credit (or full)', tr('geben Sie die gutzuschreibenden Positionen an (oder full)', 'indiquez les lignes à créditer (ou full)', 'indicare le righe da accreditare (o full)')],
  ['give either a quantity or an amount', tr('geben Sie entweder eine Menge oder einen Betrag an', 'indiquez soit une quantité soit un montant', "indicare una quantità o un importo")],
  ['the line has no quantity: credit an amount', tr('die Position hat keine Menge: schreiben Sie einen Betrag gut', "la ligne n'a pas de quantité : créditez un montant", 'la riga non ha quantità: accreditare un importo')],
  ['choose at least one contact', tr('wählen Sie mindestens einen Kontakt', 'choisissez au moins un contact', 'scegliere almeno un contatto')],
  ['choose at least one contact to e-mail the invoices to', tr('wählen Sie mindestens einen Kontakt, dem die Rechnungen gemailt werden', 'choisissez au moins un contact à qui envoyer les factures par e-mail', 'scegliere almeno un contatto a cui inviare le fatture per e-mail')],
  ['the end date cannot be before the start date', tr('das Enddatum darf nicht vor dem Startdatum liegen', 'la date de fin ne peut pas être antérieure à la date de début', 'la data di fine non può essere anteriore alla data di inizio')],
  // dunning
  ["must be a yearly rate as a fraction above 0 and below 1, e.g. '0.05' for 5 %", tr("muss ein Jahreszins als Bruch über 0 und unter 1 sein, z. B. '0.05' für 5 %", "doit être un taux annuel en fraction supérieure à 0 et inférieure à 1, p. ex. '0.05' pour 5 %", "deve essere un tasso annuo come frazione maggiore di 0 e minore di 1, p. es. '0.05' per il 5 %")],
  ['choose an income account (e.g. 3600 or 6950)', tr('wählen Sie ein Ertragskonto (z. B. 3600 oder 6950)', 'choisissez un compte de produit (p. ex. 3600 ou 6950)', 'scegliere un conto ricavi (p. es. 3600 o 6950)')],
  ['the invoice is given twice', tr('die Rechnung ist doppelt angegeben', 'la facture est indiquée deux fois', 'la fattura è indicata due volte')],
  // payables
  ['choose the expense account of this bill', tr('wählen Sie das Aufwandkonto dieser Lieferantenrechnung', 'choisissez le compte de charges de cette facture fournisseur', 'scegliere il conto costi di questa fattura fornitore')],
  ['a bill needs its supplier company', tr('eine Lieferantenrechnung braucht ihre Lieferantenfirma', 'une facture fournisseur doit avoir son entreprise fournisseur', "una fattura fornitore richiede l'azienda fornitrice")],
  ['the payment profile belongs to another company', tr('die Zahlungsverbindung gehört zu einer anderen Firma', 'le profil de paiement appartient à une autre entreprise', "il profilo di pagamento appartiene a un'altra azienda")],
  ['reference is neither a QR reference nor a creditor reference (RF…)', tr('die Referenz ist weder eine QR-Referenz noch eine Creditor Reference (RF…)', "la référence n'est ni une référence QR ni une référence créancier (RF…)", 'il riferimento non è né un riferimento QR né un riferimento creditore (RF…)')],
  ['a QR-IBAN needs a QR reference (27 digits)', tr('eine QR-IBAN braucht eine QR-Referenz (27 Ziffern)', 'un QR-IBAN exige une référence QR (27 chiffres)', 'un QR-IBAN richiede un riferimento QR (27 cifre)')],
  ['a QR reference needs a QR-IBAN', tr('eine QR-Referenz braucht eine QR-IBAN', 'une référence QR exige un QR-IBAN', 'un riferimento QR richiede un QR-IBAN')],
  ['VAT cannot exceed the amount', tr('die MWST darf den Betrag nicht übersteigen', 'la TVA ne peut pas dépasser le montant', "l'IVA non può superare l'importo")],
  ['a bill at 0 % VAT carries no VAT amount', tr('eine Lieferantenrechnung zu 0 % MWST hat keinen MWST-Betrag', 'une facture fournisseur à 0 % de TVA n’a pas de montant de TVA', "una fattura fornitore con IVA allo 0 % non ha importo IVA")],
  ['the due date cannot be before the bill date', tr('das Fälligkeitsdatum darf nicht vor dem Rechnungsdatum der Lieferantenrechnung liegen', "la date d'échéance ne peut pas être antérieure à la date de la facture fournisseur", 'la data di scadenza non può essere anteriore alla data della fattura fornitore')],
  ['exchangeRate is required for a bill in another currency', tr('exchangeRate ist für eine Lieferantenrechnung in einer anderen Währung erforderlich', 'exchangeRate est obligatoire pour une facture fournisseur dans une autre monnaie', "exchangeRate è obbligatorio per una fattura fornitore in un'altra valuta")],
  ['an employee is named for staff expenses (type 1) only; a supplier bill names its supplier', tr('eine mitarbeitende Person wird nur für Spesen (Typ 1) angegeben; eine Lieferantenrechnung nennt ihren Lieferanten', 'un collaborateur ne s’indique que pour les frais des collaborateurs (type 1) ; une facture fournisseur indique son fournisseur', 'un collaboratore si indica solo per le spese dei collaboratori (tipo 1); una fattura fornitore indica il suo fornitore')],
  ['give either data.company or employee', tr('geben Sie entweder data.company oder employee an', 'indiquez soit data.company soit employee', 'indicare data.company o employee')],
  ['give either data.companyFinance or employee', tr('geben Sie entweder data.companyFinance oder employee an', 'indiquez soit data.companyFinance soit employee', 'indicare data.companyFinance o employee')],
  ['a supplier is given for supplier bills (type 0) only', tr('ein Lieferant wird nur für Lieferantenrechnungen (Typ 0) angegeben', 'un fournisseur ne s’indique que pour les factures fournisseurs (type 0)', 'un fornitore si indica solo per le fatture fornitori (tipo 0)')],
  ['give either data.company or supplier', tr('geben Sie entweder data.company oder supplier an', 'indiquez soit data.company soit supplier', 'indicare data.company o supplier')],
  ['give either data.companyFinance or supplier', tr('geben Sie entweder data.companyFinance oder supplier an', 'indiquez soit data.companyFinance soit supplier', 'indicare data.companyFinance o supplier')],
  ['pay from a bank, cash or card account (an asset or liability account)', tr('zahlen Sie von einem Bank-, Kassen- oder Kartenkonto (ein Aktiv- oder Passivkonto)', 'payez depuis un compte bancaire, de caisse ou de carte (un compte d’actif ou de passif)', 'pagare da un conto bancario, cassa o carta (un conto attivo o passivo)')],
  ['the bill is booked on this account; choose the account the money left', tr('die Lieferantenrechnung ist auf diesem Konto gebucht; wählen Sie das Konto, von dem das Geld abging', 'la facture fournisseur est comptabilisée sur ce compte ; choisissez le compte d’où l’argent est sorti', "la fattura fornitore è registrata su questo conto; scegliere il conto da cui è uscito il denaro")],
  ['only approved bills that are in no group can be grouped', tr('nur freigegebene Lieferantenrechnungen ohne Zahlungsauftrag können zusammengefasst werden', 'seules les factures fournisseurs approuvées et sans ordre de paiement peuvent être regroupées', 'solo le fatture fornitori approvate e senza ordine di pagamento possono essere raggruppate')],
  ['the bill has no IBAN payment profile to pay to', tr('die Lieferantenrechnung hat keine IBAN-Zahlungsverbindung für die Zahlung', "la facture fournisseur n'a pas de profil de paiement IBAN auquel payer", 'la fattura fornitore non ha un profilo di pagamento IBAN a cui pagare')],
  ['give one execution date per bill (same order as uuids)', tr('geben Sie ein Ausführungsdatum pro Lieferantenrechnung an (in der Reihenfolge von uuids)', "indiquez une date d'exécution par facture fournisseur (dans l'ordre de uuids)", 'indicare una data di esecuzione per fattura fornitore (nello stesso ordine di uuids)')],
  ['the file is empty; expected a header row', tr('die Datei ist leer; Kopfzeile erwartet', "le fichier est vide ; ligne d'en-tête attendue", "il file è vuoto; riga d'intestazione attesa")],
  ['the file has no receipts', tr('die Datei enthält keine Belege', 'le fichier ne contient aucune pièce', 'il file non contiene giustificativi')],
  // the receipts CSV's row problems (payables/mail-import.service.ts)
  ['column missing', tr('Spalte fehlt', 'colonne manquante', 'colonna mancante')],
  ['date must be YYYY-MM-DD, DD.MM.YYYY or DD/MM/YYYY', tr('das Datum muss JJJJ-MM-TT, TT.MM.JJJJ oder TT/MM/JJJJ sein', 'la date doit être au format AAAA-MM-JJ, JJ.MM.AAAA ou JJ/MM/AAAA', 'la data deve essere nel formato AAAA-MM-GG, GG.MM.AAAA o GG/MM/AAAA')],
  ['amount must be a positive number with at most 2 decimals', tr('der Betrag muss eine positive Zahl mit höchstens 2 Dezimalstellen sein', 'le montant doit être un nombre positif avec au plus 2 décimales', "l'importo deve essere un numero positivo con al massimo 2 decimali")],
  ['VAT must be a number ≥ 0 with at most 2 decimals', tr('die MWST muss eine Zahl ≥ 0 mit höchstens 2 Dezimalstellen sein', 'la TVA doit être un nombre ≥ 0 avec au plus 2 décimales', "l'IVA deve essere un numero ≥ 0 con al massimo 2 decimali")],
  ['exchange rate must be a positive number', tr('der Wechselkurs muss eine positive Zahl sein', 'le taux de change doit être un nombre positif', 'il tasso di cambio deve essere un numero positivo')],
  ["type must be 'bill' or 'expense'", tr("der Typ muss 'bill' oder 'expense' sein", "le type doit être 'bill' ou 'expense'", "il tipo deve essere 'bill' o 'expense'")],
  // banking, salary
  ['the bank transactions are on different bank accounts', tr('die Banktransaktionen sind auf verschiedenen Bankkonten', 'les transactions bancaires sont sur des comptes bancaires différents', 'le transazioni bancarie sono su conti bancari diversi')],
  ['give exactly one of invoice.uuid and payable.uuid', tr('geben Sie genau eines von invoice.uuid und payable.uuid an', 'indiquez exactement un de invoice.uuid et payable.uuid', 'indicare esattamente uno tra invoice.uuid e payable.uuid')],
  ['the bank file is empty', tr('die Bankdatei ist leer', 'le fichier bancaire est vide', 'il file bancario è vuoto')],
  // database conflicts (http/errors.ts fromDatabaseError)
  ['another change to the same records ran at the same time; nothing was saved, please retry', tr('eine andere Änderung an denselben Daten lief gleichzeitig; nichts wurde gespeichert, bitte versuchen Sie es erneut', "une autre modification des mêmes données a eu lieu en même temps ; rien n'a été enregistré, veuillez réessayer", "un'altra modifica agli stessi dati è avvenuta contemporaneamente; non è stato salvato nulla, riprovare")],
  // CSV imports (lib/csv.ts, chart.service.ts)
  ['the file has no rows after its header', tr('die Datei hat nach der Kopfzeile keine Zeilen', "le fichier n'a aucune ligne après l'en-tête", "il file non ha righe dopo l'intestazione")],
  ['vatEntry is given only with a VAT code', tr('vatEntry wird nur mit einem MWST-Code angegeben', "vatEntry ne s'indique qu'avec un code TVA", 'vatEntry si indica solo con un codice IVA')],
  ['a group number has 1 to 3 digits', tr('eine Gruppennummer hat 1 bis 3 Ziffern', 'un numéro de groupe compte 1 à 3 chiffres', 'un numero di gruppo ha da 1 a 3 cifre')],
  ['an account number has 4 to 10 digits', tr('eine Kontonummer hat 4 bis 10 Ziffern', 'un numéro de compte compte 4 à 10 chiffres', 'un numero di conto ha da 4 a 10 cifre')],
  ['give the debit account, the credit account or both', tr('geben Sie das Sollkonto, das Habenkonto oder beide an', 'indiquez le compte au débit, le compte au crédit ou les deux', 'indicare il conto dare, il conto avere o entrambi')],
  // ISO 20022 bank files (banking/bank-files.ts): element names and message kinds stay as written
  ['This is a pain.002 payment status report, not a bank statement', tr('Dies ist ein pain.002-Zahlungsstatusbericht, kein Kontoauszug', "Ceci est un rapport d'état de paiement pain.002, pas un relevé de compte", 'Questo è un rapporto di stato dei pagamenti pain.002, non un estratto conto')],
  ['GrpHdr/MsgId or OrgnlGrpInfAndSts/OrgnlMsgId is missing', tr('GrpHdr/MsgId oder OrgnlGrpInfAndSts/OrgnlMsgId fehlt', 'GrpHdr/MsgId ou OrgnlGrpInfAndSts/OrgnlMsgId manque', 'manca GrpHdr/MsgId o OrgnlGrpInfAndSts/OrgnlMsgId')],
  // payroll files (salary/payroll-file.ts, salary.service.ts)
  ['the workbook has no worksheet with rows', tr('die Arbeitsmappe hat kein Arbeitsblatt mit Zeilen', "le classeur n'a aucune feuille contenant des lignes", 'la cartella di lavoro non ha alcun foglio con righe')],
  ['expected a date YYYY-MM-DD or DD.MM.YYYY', tr('Datum JJJJ-MM-TT oder TT.MM.JJJJ erwartet', 'date AAAA-MM-JJ ou JJ.MM.AAAA attendue', 'data AAAA-MM-GG o GG.MM.AAAA attesa')],
  ['the row names no account: give a wage type, an account, or debit and credit', tr('die Zeile nennt kein Konto: geben Sie eine Lohnart, ein Konto oder Soll und Haben an', "la ligne n'indique aucun compte : indiquez un genre de salaire, un compte, ou débit et crédit", 'la riga non indica alcun conto: indicare un genere di salario, un conto, o dare e avere')],
  ['a net pay wage type needs its debit account (the salary clearing account 1091)', tr('eine Lohnart für den Nettolohn braucht ihr Sollkonto (das Lohndurchlaufkonto 1091)', 'un genre de salaire net exige son compte au débit (le compte de transit des salaires 1091)', 'un genere di salario netto richiede il suo conto dare (il conto transitorio dei salari 1091)')],
  ['net pay not positive', tr('Nettolohn nicht positiv', 'salaire net non positif', 'salario netto non positivo')],
  ['imported already', tr('bereits importiert', 'déjà importé', 'già importato')],
  // invoice import (invoicing/import.service.ts): a row's customer
  ['give the customer: its name, UID or uuid', tr('geben Sie den Kunden an: seinen Namen, seine UID oder uuid', 'indiquez le client : son nom, son IDE ou son uuid', 'indicare il cliente: il suo nome, IDI o uuid')],
  ['give the customer once: company or companyUuid', tr('geben Sie den Kunden nur einmal an: company oder companyUuid', 'indiquez le client une seule fois : company ou companyUuid', 'indicare il cliente una sola volta: company o companyUuid')],
  ['the address must be one of the customer', tr('die Adresse muss eine des Kunden sein', "l'adresse doit être une adresse du client", "l'indirizzo deve essere uno del cliente")],
  ['the customer has no address', tr('der Kunde hat keine Adresse', "le client n'a pas d'adresse", 'il cliente non ha un indirizzo')],
]);

/** A message with values: `match` finds it, `to` writes it in a language keeping the values. */
export interface ServerMessagePattern {
  readonly match: RegExp;
  readonly to: (groups: string[], language: Translated) => string;
  /** One English message it matches (the tests translate it). */
  readonly example: string;
  /** Indexes of the groups that are words of the message (translated), not values (kept). */
  readonly words?: readonly number[];
}

const by = (de: string, fr: string, it: string) => (l: Translated) => ({ de, fr, it })[l];
/** A value that is itself a message ("the QR-bill cannot be made: …"). */
const inner = (text: string, l: Translated) => translateServerMessage(text, l);
const PERIODS: Readonly<Record<string, Translations>> = {
  monthly: tr('monatliche', 'mensuelle', 'mensile'),
  quarterly: tr('quartalsweise', 'trimestrielle', 'trimestrale'),
  'half-yearly': tr('halbjährliche', 'semestrielle', 'semestrale'),
  yearly: tr('jährliche', 'annuelle', 'annuale'),
};

export const SERVER_PATTERNS: readonly ServerMessagePattern[] = [
  {
    match: /^at most (\d+) characters$/,
    example: 'at most 1000 characters',
    to: ([n], l) => by(`höchstens ${n} Zeichen`, `au plus ${n} caractères`, `al massimo ${n} caratteri`)(l),
  },
  {
    match: /^(.+) \(debit (\S+), credit (\S+)\)$/,
    example: 'debit and credit must be equal (debit 100.00, credit 90.00)',
    to: ([text, debit, credit], l) => by(`${inner(text!, l)} (Soll ${debit}, Haben ${credit})`, `${inner(text!, l)} (débit ${debit}, crédit ${credit})`, `${inner(text!, l)} (dare ${debit}, avere ${credit})`)(l),
  },
  {
    match: /^(\d+) problems?, nothing was imported; row (\d+): (.+)$/,
    example: '2 problems, nothing was imported; row 3: dateInvoice: date invalid',
    to: ([count, row, text], l) =>
      by(`${count} Fehler, nichts wurde importiert; Zeile ${row}: ${inner(text!, l)}`, `${count} problème(s), rien n'a été importé ; ligne ${row} : ${inner(text!, l)}`, `${count} problema/i, non è stato importato nulla; riga ${row}: ${inner(text!, l)}`)(l),
  },
  {
    match: /^(\d+) error\(s\) in (\d+) row\(s\); nothing imported$/,
    example: '3 error(s) in 2 row(s); nothing imported',
    to: ([errors, rows], l) => by(`${errors} Fehler in ${rows} Zeile(n); nichts importiert`, `${errors} erreur(s) dans ${rows} ligne(s) ; rien n'a été importé`, `${errors} errore/i in ${rows} riga/e; non è stato importato nulla`)(l),
  },
  {
    match: /^unknown currency '(.*)'$/,
    example: "unknown currency 'XYZ'",
    to: ([code], l) => by(`unbekannte Währung '${code}'`, `monnaie '${code}' inconnue`, `valuta '${code}' sconosciuta`)(l),
  },
  {
    match: /^no ledger account '(.*)' \(give its number or name\)$/,
    example: "no ledger account 'Reisen' (give its number or name)",
    to: ([category], l) => by(`kein Konto '${category}' (Nummer oder Name angeben)`, `aucun compte '${category}' (indiquez son numéro ou son nom)`, `nessun conto '${category}' (indicarne il numero o il nome)`)(l),
  },
  {
    match: /^missing column\(s\): (.+)$/,
    example: 'missing column(s): date, amount',
    to: ([columns], l) => by(`fehlende Spalte(n): ${columns}`, `colonne(s) manquante(s) : ${columns}`, `colonna/e mancante/i: ${columns}`)(l),
  },
  {
    match: /^at most (\d+) receipts per file$/,
    example: 'at most 500 receipts per file',
    to: ([n], l) => by(`höchstens ${n} Belege pro Datei`, `au plus ${n} pièces par fichier`, `al massimo ${n} giustificativi per file`)(l),
  },
  {
    match: /^the file is not valid CSV: (.*)$/,
    example: 'the file is not valid CSV: Invalid Closing Quote',
    to: ([detail], l) => by(`die Datei ist kein gültiges CSV: ${detail}`, `le fichier n'est pas un CSV valable : ${detail}`, `il file non è un CSV valido: ${detail}`)(l),
  },
  {
    match: /^(\S+) (.+) is not a balance-sheet account: the VAT settlement is a liability \(or a claim\) towards the ESTV$/,
    example: '3200 Warenertrag is not a balance-sheet account: the VAT settlement is a liability (or a claim) towards the ESTV',
    to: ([number, name], l) =>
      by(
        `${number} ${name} ist kein Bilanzkonto: die MWST-Abrechnung ist eine Schuld (oder ein Guthaben) gegenüber der ESTV`,
        `${number} ${name} n'est pas un compte du bilan : le décompte TVA est une dette (ou une créance) envers l'AFC`,
        `${number} ${name} non è un conto di bilancio: il rendiconto IVA è un debito (o un credito) verso l'AFC`,
      )(l),
  },
  {
    match: /^(\S+) is already '(.*)' in the chart of accounts; bank accounts are usually 1020–1029$/,
    example: "1020 is already 'Bank' in the chart of accounts; bank accounts are usually 1020–1029",
    to: ([number, name], l) =>
      by(
        `${number} ist im Kontenplan bereits '${name}'; Bankkonten sind üblicherweise 1020–1029`,
        `${number} est déjà '${name}' dans le plan comptable ; les comptes bancaires sont en général 1020–1029`,
        `${number} è già '${name}' nel piano dei conti; i conti bancari sono di solito 1020–1029`,
      )(l),
  },
  {
    match: /^(ledger account|journal entry|company|payment profile|payable|file) (\S+) not found$/,
    words: [0],
    example: 'ledger account 4711 not found',
    to: ([what, id], l) =>
      ({
        'ledger account': by(`Konto ${id} nicht gefunden`, `compte ${id} introuvable`, `conto ${id} non trovato`),
        'journal entry': by(`Buchung ${id} nicht gefunden`, `écriture ${id} introuvable`, `registrazione ${id} non trovata`),
        company: by(`Firma ${id} nicht gefunden`, `entreprise ${id} introuvable`, `azienda ${id} non trovata`),
        'payment profile': by(`Zahlungsverbindung ${id} nicht gefunden`, `profil de paiement ${id} introuvable`, `profilo di pagamento ${id} non trovato`),
        payable: by(`Lieferantenrechnung ${id} nicht gefunden`, `facture fournisseur ${id} introuvable`, `fattura fornitore ${id} non trovata`),
        file: by(`Datei ${id} nicht gefunden`, `fichier ${id} introuvable`, `file ${id} non trovato`),
      })[what!]!(l),
  },
  {
    match: /^no (input VAT|ledger) account (\S+) in the chart$/,
    words: [0],
    example: 'no input VAT account 1170 in the chart',
    to: ([kind, number], l) =>
      kind === 'ledger'
        ? by(`kein Konto ${number} im Kontenplan`, `pas de compte ${number} dans le plan comptable`, `nessun conto ${number} nel piano dei conti`)(l)
        : by(`kein Vorsteuerkonto ${number} im Kontenplan`, `pas de compte d'impôt préalable ${number} dans le plan comptable`, `nessun conto dell'imposta precedente ${number} nel piano dei conti`)(l),
  },
  {
    match: /^no folder "(.*)" in this mailbox$/,
    example: 'no folder "Rechnungen" in this mailbox',
    to: ([folder], l) => by(`kein Ordner "${folder}" in diesem Postfach`, `pas de dossier "${folder}" dans cette boîte aux lettres`, `nessuna cartella "${folder}" in questa casella di posta`)(l),
  },
  {
    match: /^cannot connect \((.*)\)$/,
    example: 'cannot connect (ECONNREFUSED 127.0.0.1:993)',
    to: ([detail], l) => by(`keine Verbindung möglich (${detail})`, `connexion impossible (${detail})`, `connessione impossibile (${detail})`)(l),
  },
  {
    match: /^(.+) is not a contact of the (customer|invoice's customer)$/,
    words: [1],
    example: "Anna Muster is not a contact of the invoice's customer",
    to: ([name], l) => by(`${name} ist kein Kontakt des Kunden`, `${name} n'est pas un contact du client`, `${name} non è un contatto del cliente`)(l),
  },
  {
    match: /^(.+) has no contact with an e-mail address: print the letter instead$/,
    example: 'Muster AG has no contact with an e-mail address: print the letter instead',
    to: ([name], l) =>
      by(`${name} hat keinen Kontakt mit E-Mail-Adresse: drucken Sie stattdessen den Brief`, `${name} n'a pas de contact avec une adresse e-mail : imprimez plutôt la lettre`, `${name} non ha contatti con un indirizzo e-mail: stampare invece la lettera`)(l),
  },
  {
    match: /^(\S+) is more than the (\S+) invoiced on line "(.*)"$/,
    example: '3 is more than the 2 invoiced on line "Beratung"',
    to: ([quantity, invoiced, line], l) =>
      by(`${quantity} ist mehr als die ${invoiced} in Rechnung gestellten der Position "${line}"`, `${quantity} dépasse les ${invoiced} facturés sur la ligne "${line}"`, `${quantity} supera i ${invoiced} fatturati sulla riga "${line}"`)(l),
  },
  {
    match: /^(\S+) is more than what is left to credit of line "(.*)" \((\S+) of (\S+) (\S+)\)$/,
    example: '50.00 is more than what is left to credit of line "Beratung" (20.00 of 100.00 CHF)',
    to: ([amount, line, rest, total, currency], l) =>
      by(
        `${amount} ist mehr als der noch gutzuschreibende Rest der Position "${line}" (${rest} von ${total} ${currency})`,
        `${amount} dépasse ce qui reste à créditer sur la ligne "${line}" (${rest} sur ${total} ${currency})`,
        `${amount} supera quanto resta da accreditare sulla riga "${line}" (${rest} di ${total} ${currency})`,
      )(l),
  },
  {
    match: /^(\S+) (\S+) is more than 25 % away from the booked (\S+) \S+: check the amount$/,
    example: '150.00 CHF is more than 25 % away from the booked 100.00 CHF: check the amount',
    to: ([settled, currency, booked], l) =>
      by(
        `${settled} ${currency} weicht mehr als 25 % vom gebuchten Betrag ${booked} ${currency} ab: prüfen Sie den Betrag`,
        `${settled} ${currency} s'écarte de plus de 25 % du montant comptabilisé de ${booked} ${currency} : vérifiez le montant`,
        `${settled} ${currency} si scosta di più del 25 % dall'importo registrato di ${booked} ${currency}: verificare l'importo`,
      )(l),
  },
  {
    match: /^(\S+) is more than the open amount (\S+) (\S+) of (bill|invoice) (\S+): an overpayment is not booked$/,
    words: [3],
    example: '120.00 is more than the open amount 100.00 CHF of bill 7: an overpayment is not booked',
    to: ([amount, open, currency, kind, ref], l) =>
      kind === 'bill'
        ? by(
            `${amount} ist mehr als der offene Betrag ${open} ${currency} der Lieferantenrechnung ${ref}: eine Überzahlung wird nicht gebucht`,
            `${amount} dépasse le montant ouvert de ${open} ${currency} de la facture fournisseur ${ref} : un paiement excédentaire n'est pas comptabilisé`,
            `${amount} supera l'importo aperto di ${open} ${currency} della fattura fornitore ${ref}: un pagamento in eccesso non viene registrato`,
          )(l)
        : by(
            `${amount} ist mehr als der offene Betrag ${open} ${currency} der Rechnung ${ref}: eine Überzahlung wird nicht gebucht`,
            `${amount} dépasse le montant ouvert de ${open} ${currency} de la facture ${ref} : un paiement excédentaire n'est pas comptabilisé`,
            `${amount} supera l'importo aperto di ${open} ${currency} della fattura ${ref}: un pagamento in eccesso non viene registrato`,
          )(l),
  },
  {
    match: /^the credit note's total (\S+) is more than the open amount (\S+) (\S+) of invoice (\S+): no money is owed back by a credit note, reverse a payment first$/,
    example: "the credit note's total 150.00 is more than the open amount 100.00 CHF of invoice 00042: no money is owed back by a credit note, reverse a payment first",
    to: ([total, open, currency, ref], l) =>
      by(
        `das Total der Gutschrift ${total} ist mehr als der offene Betrag ${open} ${currency} der Rechnung ${ref}: eine Gutschrift zahlt kein Geld zurück, stornieren Sie zuerst eine Zahlung`,
        `le total de la note de crédit ${total} dépasse le montant ouvert de ${open} ${currency} de la facture ${ref} : une note de crédit ne rembourse pas d'argent, extournez d'abord un paiement`,
        `il totale della nota di credito ${total} supera l'importo aperto di ${open} ${currency} della fattura ${ref}: una nota di credito non rimborsa denaro, stornare prima un pagamento`,
      )(l),
  },
  {
    match: /^(\d{3}) is derived from other figures: open its parts \(299 = 200 − 289; 500\/510 = 399 − 479\)$/,
    example: '299 is derived from other figures: open its parts (299 = 200 − 289; 500/510 = 399 − 479)',
    to: ([ziffer], l) =>
      by(
        `${ziffer} wird aus anderen Ziffern abgeleitet: öffnen Sie ihre Teile (299 = 200 − 289; 500/510 = 399 − 479)`,
        `${ziffer} est dérivé d'autres chiffres : ouvrez ses parties (299 = 200 − 289; 500/510 = 399 − 479)`,
        `${ziffer} è derivata da altre cifre: aprire le sue parti (299 = 200 − 289; 500/510 = 399 − 479)`,
      )(l),
  },
  {
    match: /^The passkey could not be verified: (.*)$/,
    example: 'The passkey could not be verified: Unexpected attestation format',
    to: ([detail], l) => by(`Der Passkey konnte nicht überprüft werden: ${detail}`, `La clé d'accès n'a pas pu être vérifiée : ${detail}`, `Non è stato possibile verificare la passkey: ${detail}`)(l),
  },
  {
    match: /^Sign-in with (.+) is not configured$/,
    example: 'Sign-in with Google is not configured',
    to: ([provider], l) => by(`Die Anmeldung mit ${provider} ist nicht eingerichtet`, `La connexion avec ${provider} n'est pas configurée`, `L'accesso con ${provider} non è configurato`)(l),
  },
  {
    match: /^bank fees on top are booked with bills in (\S+); for a bill in (\S+) give what left the bank as amountBase$/,
    example: 'bank fees on top are booked with bills in CHF; for a bill in EUR give what left the bank as amountBase',
    to: ([base, currency], l) =>
      by(
        `zusätzliche Bankspesen werden bei Lieferantenrechnungen in ${base} gebucht; geben Sie bei einer Lieferantenrechnung in ${currency} den Betrag, der die Bank verlassen hat, als amountBase an`,
        `les frais bancaires en sus se comptabilisent avec les factures fournisseurs en ${base} ; pour une facture fournisseur en ${currency}, indiquez ce qui a quitté la banque comme amountBase`,
        `le spese bancarie aggiuntive si registrano con le fatture fornitori in ${base}; per una fattura fornitore in ${currency} indicare quanto è uscito dalla banca come amountBase`,
      )(l),
  },
  {
    match: /^fees deducted by the payer are booked on invoices in (\S+); on an invoice in (\S+) give what reached the bank as amountBase$/,
    example: 'fees deducted by the payer are booked on invoices in CHF; on an invoice in EUR give what reached the bank as amountBase',
    to: ([base, currency], l) =>
      by(
        `vom Zahler abgezogene Spesen werden bei Rechnungen in ${base} gebucht; geben Sie bei einer Rechnung in ${currency} den Betrag, der auf der Bank einging, als amountBase an`,
        `les frais déduits par le payeur se comptabilisent sur les factures en ${base} ; sur une facture en ${currency}, indiquez ce qui est arrivé à la banque comme amountBase`,
        `le spese dedotte dal pagatore si registrano sulle fatture in ${base}; su una fattura in ${currency} indicare quanto è arrivato in banca come amountBase`,
      )(l),
  },
  {
    match: /^cash discounts and small differences are written off on (bills|invoices) in (\S+); an? (?:bill|invoice) in (\S+) is paid in parts until nothing is open$/,
    words: [0],
    example: 'cash discounts and small differences are written off on invoices in CHF; an invoice in EUR is paid in parts until nothing is open',
    to: ([kind, base, currency], l) =>
      kind === 'bills'
        ? by(
            `Skonti und kleine Differenzen werden bei Lieferantenrechnungen in ${base} ausgebucht; eine Lieferantenrechnung in ${currency} wird in Teilen bezahlt, bis nichts mehr offen ist`,
            `les escomptes et petites différences s'amortissent sur les factures fournisseurs en ${base} ; une facture fournisseur en ${currency} se paie en plusieurs fois jusqu'à ce que rien ne reste ouvert`,
            `gli sconti cassa e le piccole differenze si stralciano sulle fatture fornitori in ${base}; una fattura fornitore in ${currency} si paga a rate finché non resta nulla di aperto`,
          )(l)
        : by(
            `Skonti und kleine Differenzen werden bei Rechnungen in ${base} ausgebucht; eine Rechnung in ${currency} wird in Teilen bezahlt, bis nichts mehr offen ist`,
            `les escomptes et petites différences s'amortissent sur les factures en ${base} ; une facture en ${currency} se paie en plusieurs fois jusqu'à ce que rien ne reste ouvert`,
            `gli sconti cassa e le piccole differenze si stralciano sulle fatture in ${base}; una fattura in ${currency} si paga a rate finché non resta nulla di aperto`,
          )(l),
  },
  {
    match: /^(.+) is not a readable e-mail message$/,
    example: 'scan.eml is not a readable e-mail message',
    to: ([name], l) => by(`${name} ist keine lesbare E-Mail-Nachricht`, `${name} n'est pas un message e-mail lisible`, `${name} non è un messaggio e-mail leggibile`)(l),
  },
  {
    match: /^(.+) is not an e-mail message \(no From address\)$/,
    example: 'scan.eml is not an e-mail message (no From address)',
    to: ([name], l) => by(`${name} ist keine E-Mail-Nachricht (keine Absenderadresse)`, `${name} n'est pas un message e-mail (pas d'adresse d'expéditeur)`, `${name} non è un messaggio e-mail (nessun indirizzo mittente)`)(l),
  },
  {
    match: /^send the file's bytes as (.+)$/,
    example: "send the file's bytes as application/pdf, image/png",
    to: ([types], l) => by(`senden Sie den Inhalt der Datei als ${types}`, `envoyez le contenu du fichier comme ${types}`, `inviare il contenuto del file come ${types}`)(l),
  },
  {
    match: /^invalid value: (.*)$/,
    example: 'invalid value: value too long for type character varying(200)',
    to: ([detail], l) => by(`ungültiger Wert: ${detail}`, `valeur invalide : ${detail}`, `valore non valido: ${detail}`)(l),
  },
  {
    match: /^invoice (\S+) is credited in full already$/,
    example: 'invoice 00042 is credited in full already',
    to: ([ref], l) => by(`Rechnung ${ref} ist bereits vollständig gutgeschrieben`, `la facture ${ref} est déjà entièrement créditée`, `la fattura ${ref} è già interamente accreditata`)(l),
  },
  {
    match: /^ledger account (\S+) is not an equity account: the year's result goes to equity \(e\.g\. 2979 Jahresgewinn oder -verlust\)$/,
    example: "ledger account 3200 is not an equity account: the year's result goes to equity (e.g. 2979 Jahresgewinn oder -verlust)",
    to: ([number], l) =>
      by(
        `Konto ${number} ist kein Eigenkapitalkonto: das Jahresergebnis geht ins Eigenkapital (z. B. 2979 Jahresgewinn oder -verlust)`,
        `le compte ${number} n'est pas un compte de fonds propres : le résultat de l'exercice va aux fonds propres (p. ex. 2979 Jahresgewinn oder -verlust)`,
        `il conto ${number} non è un conto di capitale proprio: il risultato dell'esercizio va al capitale proprio (p. es. 2979 Jahresgewinn oder -verlust)`,
      )(l),
  },
  {
    match: /^the profit-or-loss account (\S+) is a revenue or expense account: choose an equity account in the accounting settings$/,
    example: 'the profit-or-loss account 3200 is a revenue or expense account: choose an equity account in the accounting settings',
    to: ([number], l) =>
      by(
        `das Konto Jahresgewinn oder -verlust ${number} ist ein Ertrags- oder Aufwandkonto: wählen Sie in den Buchhaltungseinstellungen ein Eigenkapitalkonto`,
        `le compte de bénéfice ou perte ${number} est un compte de produit ou de charge : choisissez un compte de fonds propres dans les réglages comptables`,
        `il conto utile o perdita ${number} è un conto ricavi o costi: scegliere un conto di capitale proprio nelle impostazioni contabili`,
      )(l),
  },
  {
    match: /^line (\d+), column amount: the net pay of (.+) for (\S+) is not positive$/,
    example: 'line 4, column amount: the net pay of Anna Muster for 2026-01 is not positive',
    to: ([line, employee, period], l) =>
      by(`Zeile ${line}, Spalte amount: der Nettolohn von ${employee} für ${period} ist nicht positiv`, `ligne ${line}, colonne amount : le salaire net de ${employee} pour ${period} n'est pas positif`, `riga ${line}, colonna amount: il salario netto di ${employee} per ${period} non è positivo`)(l),
  },
  {
    match: /^line (\S+) is given twice$/,
    example: 'line 12 is given twice',
    to: ([line], l) => by(`Position ${line} ist doppelt angegeben`, `la ligne ${line} est indiquée deux fois`, `la riga ${line} è indicata due volte`)(l),
  },
  {
    match: /^line (\S+) is not a line of invoice (\S+)$/,
    example: 'line 12 is not a line of invoice 00042',
    to: ([line, ref], l) => by(`Position ${line} gehört nicht zur Rechnung ${ref}`, `la ligne ${line} n'est pas une ligne de la facture ${ref}`, `la riga ${line} non è una riga della fattura ${ref}`)(l),
  },
  {
    match: /^must be on or before (dateTo|compareTo|the date) (\S+)$/,
    words: [0],
    example: 'must be on or before dateTo 2026-12-31',
    to: ([what, date], l) => by(`muss am oder vor ${what === 'the date' ? 'dem Datum' : what} ${date} liegen`, `doit être antérieur ou égal à ${what === 'the date' ? 'la date' : what} ${date}`, `deve essere anteriore o uguale a ${what === 'the date' ? 'la data' : what} ${date}`)(l),
  },
  {
    match: /^posting (\S+) is not on this bank account$/,
    example: 'posting 17 is not on this bank account',
    to: ([id], l) => by(`Buchungszeile ${id} ist nicht auf diesem Bankkonto`, `la ligne d'écriture ${id} n'est pas sur ce compte bancaire`, `la riga di registrazione ${id} non è su questo conto bancario`)(l),
  },
  {
    match: /^the (payment|ledger|credit note) date must be on or after the date the invoice was sent \((\S+)\)$/,
    words: [0],
    example: 'the ledger date must be on or after the date the invoice was sent (2026-01-15)',
    to: ([kind, date], l) =>
      ({
        payment: by(`das Zahlungsdatum muss am oder nach dem Versanddatum der Rechnung liegen (${date})`, `la date de paiement doit être postérieure ou égale à la date d'envoi de la facture (${date})`, `la data di pagamento deve essere uguale o successiva alla data di invio della fattura (${date})`),
        ledger: by(`das Buchungsdatum muss am oder nach dem Versanddatum der Rechnung liegen (${date})`, `la date comptable doit être postérieure ou égale à la date d'envoi de la facture (${date})`, `la data di registrazione deve essere uguale o successiva alla data di invio della fattura (${date})`),
        'credit note': by(`das Datum der Gutschrift muss am oder nach dem Versanddatum der Rechnung liegen (${date})`, `la date de la note de crédit doit être postérieure ou égale à la date d'envoi de la facture (${date})`, `la data della nota di credito deve essere uguale o successiva alla data di invio della fattura (${date})`),
      })[kind!]!(l),
  },
  {
    match: /^the reversal date must be on or after the payment date \((\S+)\)$/,
    example: 'the reversal date must be on or after the payment date (2026-02-01)',
    to: ([date], l) => by(`das Stornodatum muss am oder nach dem Zahlungsdatum liegen (${date})`, `la date d'extourne doit être postérieure ou égale à la date de paiement (${date})`, `la data di storno deve essere uguale o successiva alla data di pagamento (${date})`)(l),
  },
  {
    match: /^the QR-bill cannot be made: (.+)$/,
    example: 'the QR-bill cannot be made: creditor.name: This field is required',
    to: ([text], l) => by(`die QR-Rechnung kann nicht erstellt werden: ${inner(text!, l)}`, `la QR-facture ne peut pas être établie : ${inner(text!, l)}`, `la QR-fattura non può essere allestita: ${inner(text!, l)}`)(l),
  },
  {
    match: /^the bank transaction is in (\S+); book it by hand with its exchange rate$/,
    example: 'the bank transaction is in EUR; book it by hand with its exchange rate',
    to: ([currency], l) =>
      by(`die Banktransaktion ist in ${currency}; buchen Sie sie von Hand mit ihrem Wechselkurs`, `la transaction bancaire est en ${currency} ; comptabilisez-la à la main avec son cours de change`, `la transazione bancaria è in ${currency}; registrarla a mano con il suo tasso di cambio`)(l),
  },
  {
    match: /^the document is in (\S+), the currency of the books: it is settled for its amount (\S+)$/,
    example: 'the document is in CHF, the currency of the books: it is settled for its amount 100.00',
    to: ([currency, amount], l) =>
      by(
        `der Beleg ist in ${currency}, der Währung der Buchhaltung: er wird zu seinem Betrag ${amount} ausgeglichen`,
        `la pièce est en ${currency}, la monnaie de la comptabilité : elle est soldée pour son montant ${amount}`,
        `il giustificativo è in ${currency}, la valuta della contabilità: è saldato per il suo importo ${amount}`,
      )(l),
  },
  {
    match: /^the fee is more than the open amount (\S+)$/,
    example: 'the fee is more than the open amount 10.00',
    to: ([open], l) => by(`die Spesen sind höher als der offene Betrag ${open}`, `les frais dépassent le montant ouvert de ${open}`, `le spese superano l'importo aperto di ${open}`)(l),
  },
  {
    match: /^the period ends on (\S+): a return is filed once its period has ended$/,
    example: 'the period ends on 2026-03-31: a return is filed once its period has ended',
    to: ([date], l) =>
      by(`die Periode endet am ${date}: eine Abrechnung wird eingereicht, wenn ihre Periode abgelaufen ist`, `la période se termine le ${date} : un décompte se dépose une fois sa période terminée`, `il periodo termina il ${date}: un rendiconto si inoltra quando il suo periodo è terminato`)(l),
  },
  {
    match: /^the rest of (\S+) is more than the tolerance \((\S+) % or (\S+), here (\S+)\): record a part payment instead$/,
    example: 'the rest of 12.00 is more than the tolerance (1 % or 5.00, here 5.00): record a part payment instead',
    to: ([rest, percent, amount, allowed], l) =>
      by(
        `der Rest von ${rest} übersteigt die Toleranz (${percent} % oder ${amount}, hier ${allowed}): erfassen Sie stattdessen eine Teilzahlung`,
        `le reste de ${rest} dépasse la tolérance (${percent} % ou ${amount}, ici ${allowed}) : enregistrez plutôt un paiement partiel`,
        `il resto di ${rest} supera la tolleranza (${percent} % o ${amount}, qui ${allowed}): registrare invece un pagamento parziale`,
      )(l),
  },
  {
    match: /^the yearly reconciliation covers a calendar year: (\S+) to (\S+)$/,
    example: 'the yearly reconciliation covers a calendar year: 2025-01-01 to 2025-12-31',
    to: ([from, to], l) =>
      by(`die Jahresabstimmung umfasst ein Kalenderjahr: ${from} bis ${to}`, `la concordance annuelle couvre une année civile : du ${from} au ${to}`, `la concordanza annuale copre un anno civile: dal ${from} al ${to}`)(l),
  },
  {
    match: /^not a (monthly|quarterly|half-yearly|yearly) VAT period: (.+) runs from (\S+) to (\S+)$/,
    words: [0],
    example: 'not a quarterly VAT period: Q1 2026 runs from 2026-01-01 to 2026-03-31',
    to: ([period, label, from, to], l) =>
      by(
        `keine ${PERIODS[period!]!.de} MWST-Periode: ${label} dauert vom ${from} bis ${to}`,
        `pas une période TVA ${PERIODS[period!]!.fr} : ${label} va du ${from} au ${to}`,
        `non è un periodo IVA ${PERIODS[period!]!.it}: ${label} va dal ${from} al ${to}`,
      )(l),
  },
  {
    match: /^before the VAT registration \((\S+)\)$/,
    example: 'before the VAT registration (2024-01-01)',
    to: ([date], l) => by(`vor der MWST-Registrierung (${date})`, `avant l'immatriculation TVA (${date})`, `prima dell'iscrizione IVA (${date})`)(l),
  },
  {
    match: /^a line is in the invoice currency \((\S+)\)$/,
    example: 'a line is in the invoice currency (CHF)',
    to: ([currency], l) => by(`eine Position ist in der Rechnungswährung (${currency})`, `une ligne est dans la monnaie de la facture (${currency})`, `una riga è nella valuta della fattura (${currency})`)(l),
  },
  {
    match: /^VAT rate must be one of (.+) \(8\.1 %, 2\.6 %, 3\.8 %, 0 %\)$/,
    example: 'VAT rate must be one of 0.081, 0.026, 0.038, 0 (8.1 %, 2.6 %, 3.8 %, 0 %)',
    to: ([rates], l) =>
      by(`der MWST-Satz muss einer von ${rates} sein (8.1 %, 2.6 %, 3.8 %, 0 %)`, `le taux de TVA doit être l'un de ${rates} (8.1 %, 2.6 %, 3.8 %, 0 %)`, `l'aliquota IVA deve essere una di ${rates} (8.1 %, 2.6 %, 3.8 %, 0 %)`)(l),
  },
  {
    match: /^wage type (.+) is listed twice$/,
    example: 'wage type 5000 is listed twice',
    to: ([code], l) => by(`Lohnart ${code} ist doppelt aufgeführt`, `le genre de salaire ${code} est indiqué deux fois`, `il genere di salario ${code} è indicato due volte`)(l),
  },
  // ---- CSV imports (lib/csv.ts RowErrors, journal-import.service.ts, chart.service.ts): the row messages ----
  {
    // The 400's `error`: "line N, column C: message" joined by "; ", maybe "(and N more)"; each part translated.
    match: /^line (\d+), column ([\w-]+): (.+)$/,
    words: [2],
    example: 'line 3, column date: This field is required; line 4, column vatentry: vatEntry is given only with a VAT code (and 2 more)',
    to: ([line, column, rest], l) => {
      const more = / \(and (\d+) more\)$/.exec(rest!);
      const [first, ...others] = (more ? rest!.slice(0, more.index) : rest!).split(/; (?=line \d+, column )/);
      const head = by(`Zeile ${line}, Spalte ${column}: `, `ligne ${line}, colonne ${column} : `, `riga ${line}, colonna ${column}: `)(l) + inner(first!, l);
      const tail = more ? by(` (und ${more[1]} weitere)`, ` (et ${more[1]} de plus)`, ` (e altri ${more[1]})`)(l) : '';
      return [head, ...others.map((part) => inner(part, l))].join('; ') + tail;
    },
  },
  {
    match: /^line 1: (unknown|missing) column (.+); expected the columns (\S+)$/,
    words: [0],
    example: 'line 1: unknown column "betrag"; expected the columns date,entry,description,account,amount',
    to: ([kind, names, expected], l) =>
      kind === 'unknown'
        ? by(`Zeile 1: unbekannte Spalte ${names}; erwartet werden die Spalten ${expected}`, `ligne 1 : colonne inconnue ${names} ; colonnes attendues ${expected}`, `riga 1: colonna sconosciuta ${names}; colonne attese ${expected}`)(l)
        : by(`Zeile 1: fehlende Spalte ${names}; erwartet werden die Spalten ${expected}`, `ligne 1 : colonne manquante ${names} ; colonnes attendues ${expected}`, `riga 1: colonna mancante ${names}; colonne attese ${expected}`)(l),
  },
  {
    match: /^(unknown|missing) column (.+); expected the columns (\S+)$/,
    words: [0],
    example: 'missing column amount; expected the columns date,entry,description,account,amount',
    to: ([kind, names, expected], l) =>
      kind === 'unknown'
        ? by(`unbekannte Spalte ${names}; erwartet werden die Spalten ${expected}`, `colonne inconnue ${names} ; colonnes attendues ${expected}`, `colonna sconosciuta ${names}; colonne attese ${expected}`)(l)
        : by(`fehlende Spalte ${names}; erwartet werden die Spalten ${expected}`, `colonne manquante ${names} ; colonnes attendues ${expected}`, `colonna mancante ${names}; colonne attese ${expected}`)(l),
  },
  {
    // -1994.75: the CSV imports; 6500.00: the payroll file.
    match: /^"(.*)" is not an amount with at most 2 decimals such as (-1994\.75|6500\.00)$/,
    example: '"12,5x" is not an amount with at most 2 decimals such as -1994.75',
    to: ([value, sample], l) =>
      by(`"${value}" ist kein Betrag mit höchstens 2 Dezimalstellen wie ${sample}`, `"${value}" n'est pas un montant avec au plus 2 décimales comme ${sample}`, `"${value}" non è un importo con al massimo 2 decimali come ${sample}`)(l),
  },
  {
    match: /^expected (gross or net|group or account), found "(.*)"$/,
    words: [0],
    example: 'expected gross or net, found "brutto"',
    to: ([what, value], l) =>
      what === 'gross or net'
        ? by(`gross oder net erwartet, gefunden "${value}"`, `gross ou net attendu, trouvé "${value}"`, `atteso gross o net, trovato "${value}"`)(l)
        : by(`group oder account erwartet, gefunden "${value}"`, `group ou account attendu, trouvé "${value}"`, `atteso group o account, trovato "${value}"`)(l),
  },
  {
    match: /^unknown (VAT code|currency) "(.*)"$/,
    words: [0],
    example: 'unknown VAT code "UN99"',
    to: ([what, value], l) =>
      what === 'currency'
        ? by(`unbekannte Währung "${value}"`, `monnaie inconnue "${value}"`, `valuta sconosciuta "${value}"`)(l)
        : by(`unbekannter MWST-Code "${value}"`, `code TVA inconnu "${value}"`, `codice IVA sconosciuto "${value}"`)(l),
  },
  {
    match: /^VAT code (\S+) is inactive$/,
    example: 'VAT code UN81 is inactive',
    to: ([code], l) => by(`MWST-Code ${code} ist inaktiv`, `le code TVA ${code} est inactif`, `il codice IVA ${code} è inattivo`)(l),
  },
  {
    match: /^(\S+) is not the instance currency (\S+); the format has no exchange rate, so convert amounts to (\S+) first$/,
    example: 'EUR is not the instance currency CHF; the format has no exchange rate, so convert amounts to CHF first',
    to: ([currency, books], l) =>
      by(
        `${currency} ist nicht die Währung der Buchhaltung ${books}; das Format kennt keinen Wechselkurs, rechnen Sie die Beträge zuerst in ${books} um`,
        `${currency} n'est pas la monnaie de la comptabilité ${books} ; le format n'a pas de cours de change, convertissez d'abord les montants en ${books}`,
        `${currency} non è la valuta della contabilità ${books}; il formato non ha tasso di cambio, convertire prima gli importi in ${books}`,
      )(l),
  },
  {
    // The payroll file's key may be "2026-01 Anna Muster" (entries by employee).
    match: /^entry (.+?) is dated (\S+) on line (\d+); its rows must share that date$/,
    example: 'entry A7 is dated 2025-03-01 on line 4; its rows must share that date',
    to: ([key, date, line], l) =>
      by(
        `Buchung ${key} ist auf Zeile ${line} vom ${date}; ihre Zeilen müssen dieses Datum teilen`,
        `l'écriture ${key} est datée du ${date} à la ligne ${line} ; ses lignes doivent avoir cette date`,
        `la registrazione ${key} è datata ${date} alla riga ${line}; le sue righe devono avere questa data`,
      )(l),
  },
  {
    match: /^entry (\S+) needs at least two postings$/,
    example: 'entry A7 needs at least two postings',
    to: ([key], l) => by(`Buchung ${key} braucht mindestens zwei Buchungszeilen`, `l'écriture ${key} doit compter au moins deux lignes d'écriture`, `la registrazione ${key} richiede almeno due righe di registrazione`)(l),
  },
  {
    match: /^entry (\S+) does not balance: debit minus credit is (\S+)$/,
    example: 'entry A7 does not balance: debit minus credit is 10.00',
    to: ([key, difference], l) =>
      by(`Buchung ${key} ist nicht ausgeglichen: Soll minus Haben ist ${difference}`, `l'écriture ${key} n'est pas équilibrée : débit moins crédit vaut ${difference}`, `la registrazione ${key} non è in pareggio: dare meno avere è ${difference}`)(l),
  },
  {
    // The 400's `error` of a CSV or payroll import: the unknown accounts, then maybe the row errors ("; line N, column C: …").
    match: /^could not map account ([^;]+?)(?:; (line \d+, column [\s\S]+))?$/,
    words: [0],
    example: 'could not map account 9999, could not map account 9998; line 3, column amount: This field is required (and 2 more)',
    to: ([numbers, rows], l) => {
      const list = `could not map account ${numbers}`.split(', could not map account ').map((n) => n.replace(/^could not map account /, ''));
      const lead = list.map((n) => by(`Konto ${n} konnte nicht zugeordnet werden`, `le compte ${n} n'a pas pu être attribué`, `non è stato possibile attribuire il conto ${n}`)(l)).join(', ');
      return rows === undefined ? lead : `${lead}; ${inner(rows, l)}`;
    },
  },
  {
    match: /^(\S+) is already on line (\d+)$/,
    example: '1020 is already on line 3',
    to: ([number, line], l) => by(`${number} steht bereits auf Zeile ${line}`, `${number} figure déjà à la ligne ${line}`, `${number} figura già alla riga ${line}`)(l),
  },
  // ---- ISO 20022 bank files (banking/bank-files.ts, bank-import.service.ts): kinds, versions, element names kept ----
  {
    match: /^This is not a camt\.053, camt\.054 or pain\.002 file: found <(.+)> without an ISO 20022 namespace at line (\d+)$/,
    example: 'This is not a camt.053, camt.054 or pain.002 file: found <html> without an ISO 20022 namespace at line 1',
    to: ([element, line], l) =>
      by(
        `Dies ist keine camt.053-, camt.054- oder pain.002-Datei: <${element}> ohne ISO-20022-Namespace auf Zeile ${line} gefunden`,
        `Ce n'est pas un fichier camt.053, camt.054 ou pain.002 : <${element}> trouvé sans espace de noms ISO 20022 à la ligne ${line}`,
        `Questo non è un file camt.053, camt.054 o pain.002: trovato <${element}> senza namespace ISO 20022 alla riga ${line}`,
      )(l),
  },
  {
    match: /^This is not a camt\.053, camt\.054 or pain\.002 file: found <(.+)> at line (\d+)$/,
    example: 'This is not a camt.053, camt.054 or pain.002 file: found <pain.001> at line 2',
    to: ([element, line], l) =>
      by(
        `Dies ist keine camt.053-, camt.054- oder pain.002-Datei: <${element}> auf Zeile ${line} gefunden`,
        `Ce n'est pas un fichier camt.053, camt.054 ou pain.002 : <${element}> trouvé à la ligne ${line}`,
        `Questo non è un file camt.053, camt.054 o pain.002: trovato <${element}> alla riga ${line}`,
      )(l),
  },
  {
    match: /^This is not a camt\.053, camt\.054 or pain\.002 file: it is not (XML)$/,
    example: 'This is not a camt.053, camt.054 or pain.002 file: it is not XML',
    to: (_, l) =>
      by('Dies ist keine camt.053-, camt.054- oder pain.002-Datei: es ist kein XML', "Ce n'est pas un fichier camt.053, camt.054 ou pain.002 : ce n'est pas du XML", 'Questo non è un file camt.053, camt.054 o pain.002: non è XML')(l),
  },
  {
    match: /^The file declares a DOCTYPE \(line (\d+)\); bank files have none, so it is refused\.$/,
    example: 'The file declares a DOCTYPE (line 2); bank files have none, so it is refused.',
    to: ([line], l) =>
      by(
        `Die Datei deklariert einen DOCTYPE (Zeile ${line}); Bankdateien haben keinen, daher wird sie abgelehnt.`,
        `Le fichier déclare un DOCTYPE (ligne ${line}) ; les fichiers bancaires n'en ont pas, il est donc refusé.`,
        `Il file dichiara un DOCTYPE (riga ${line}); i file bancari non ne hanno, quindi viene rifiutato.`,
      )(l),
  },
  {
    match: /^This (\S+) file is version (\S+); Bilan reads (\S+) only in versions (\S+) and (\S+)$/,
    example: 'This camt.053 file is version .001.99; Bilan reads camt.053 only in versions .001.04 and .001.08',
    to: ([kind, version, , a, b], l) =>
      by(
        `Diese ${kind}-Datei hat die Version ${version}; Bilan liest ${kind} nur in den Versionen ${a} und ${b}`,
        `Ce fichier ${kind} est en version ${version} ; Bilan ne lit ${kind} qu'en versions ${a} et ${b}`,
        `Questo file ${kind} è nella versione ${version}; Bilan legge ${kind} solo nelle versioni ${a} e ${b}`,
      )(l),
  },
  {
    match: /^This (\S+) file is broken: it is not well-formed XML(?: \(line (\d+)\))?$/,
    example: 'This camt.053 file is broken: it is not well-formed XML (line 7)',
    to: ([kind, line], l) =>
      by(
        `Diese ${kind}-Datei ist beschädigt: sie ist kein wohlgeformtes XML${line ? ` (Zeile ${line})` : ''}`,
        `Ce fichier ${kind} est endommagé : ce n'est pas du XML bien formé${line ? ` (ligne ${line})` : ''}`,
        `Questo file ${kind} è danneggiato: non è XML ben formato${line ? ` (riga ${line})` : ''}`,
      )(l),
  },
  {
    match: /^This is not a (\S+) file: found <(.+)> where <(.+)> belongs$/,
    example: 'This is not a camt.053 file: found <BkToCstmrDbtCdtNtfctn> where <BkToCstmrStmt> belongs',
    to: ([kind, found, expected], l) =>
      by(
        `Dies ist keine ${kind}-Datei: <${found}> gefunden, wo <${expected}> stehen sollte`,
        `Ce n'est pas un fichier ${kind} : <${found}> trouvé là où <${expected}> devrait figurer`,
        `Questo non è un file ${kind}: trovato <${found}> dove dovrebbe esserci <${expected}>`,
      )(l),
  },
  {
    match: /^This (\S+) file has no message id \(GrpHdr\/MsgId\)$/,
    example: 'This camt.053 file has no message id (GrpHdr/MsgId)',
    to: ([kind], l) => by(`Diese ${kind}-Datei hat keine Meldungs-ID (GrpHdr/MsgId)`, `Ce fichier ${kind} n'a pas d'identifiant de message (GrpHdr/MsgId)`, `Questo file ${kind} non ha un ID messaggio (GrpHdr/MsgId)`)(l),
  },
  {
    match: /^This is not a pain\.002 file: found (\S+)$/,
    example: 'This is not a pain.002 file: found camt.054',
    to: ([kind], l) => by(`Dies ist keine pain.002-Datei: ${kind} gefunden`, `Ce n'est pas un fichier pain.002 : ${kind} trouvé`, `Questo non è un file pain.002: trovato ${kind}`)(l),
  },
  {
    match: /^the amount "(.*)" is not an ISO 20022 amount$/,
    example: 'the amount "12,50" is not an ISO 20022 amount',
    to: ([value], l) => by(`der Betrag "${value}" ist kein ISO-20022-Betrag`, `le montant "${value}" n'est pas un montant ISO 20022`, `l'importo "${value}" non è un importo ISO 20022`)(l),
  },
  {
    match: /^the amount (\S+) is beyond (\S+)$/,
    example: 'the amount 1000000000000000 is beyond 999999999999.99',
    to: ([value, max], l) => by(`der Betrag ${value} übersteigt ${max}`, `le montant ${value} dépasse ${max}`, `l'importo ${value} supera ${max}`)(l),
  },
  {
    match: /^no bank ledger account has IBAN (\S+) in its payment profile: add it there, or choose the account \(\?account=id\)$/,
    example: 'no bank ledger account has IBAN CH9300762011623852957 in its payment profile: add it there, or choose the account (?account=id)',
    to: ([iban], l) =>
      by(
        `kein Bankkonto hat die IBAN ${iban} in seiner Zahlungsverbindung: fügen Sie sie dort hinzu oder wählen Sie das Konto (?account=id)`,
        `aucun compte bancaire n'a l'IBAN ${iban} dans son profil de paiement : ajoutez-le là ou choisissez le compte (?account=id)`,
        `nessun conto bancario ha l'IBAN ${iban} nel suo profilo di pagamento: aggiungerlo lì o scegliere il conto (?account=id)`,
      )(l),
  },
  {
    match: /^This statement is for IBAN (\S+), but ledger account (.+) has (IBAN .+|no IBAN in its payment profile): import it on the ledger account of that IBAN$/,
    words: [2],
    example: 'This statement is for IBAN NL56AGDH9619008421, but ledger account 1020 Bank has IBAN CH9300762011623852957: import it on the ledger account of that IBAN',
    to: ([iban, account, has], l) => {
      const ibans = has!.startsWith('IBAN ') ? has!.slice(5) : null;
      return by(
        `Dieser Kontoauszug ist für die IBAN ${iban}, aber das Konto ${account} hat ${ibans ? `die IBAN ${ibans}` : 'keine IBAN in seiner Zahlungsverbindung'}: importieren Sie ihn auf dem Konto dieser IBAN`,
        `Ce relevé est pour l'IBAN ${iban}, mais le compte ${account} ${ibans ? `a l'IBAN ${ibans}` : "n'a pas d'IBAN dans son profil de paiement"} : importez-le sur le compte de cet IBAN`,
        `Questo estratto conto è per l'IBAN ${iban}, ma il conto ${account} ${ibans ? `ha l'IBAN ${ibans}` : 'non ha un IBAN nel suo profilo di pagamento'}: importarlo sul conto di questo IBAN`,
      )(l);
    },
  },
  {
    match: /^The statement (?:(.+?) )?does not add up: opening balance (\S+) \+ booked entries (\S+) = (\S+), but its closing balance is (\S+) \((\S+) apart\)$/,
    example: 'The statement STM-1 does not add up: opening balance 18.15 + booked entries 8.85 = 27.00, but its closing balance is -27.00 (-54.00 apart)',
    to: ([id, opening, movements, expected, closing, apart], l) =>
      by(
        `Der Kontoauszug ${id ? `${id} ` : ''}geht nicht auf: Anfangssaldo ${opening} + gebuchte Bewegungen ${movements} = ${expected}, aber sein Schlusssaldo ist ${closing} (Differenz ${apart})`,
        `Le relevé ${id ? `${id} ` : ''}ne concorde pas : solde d'ouverture ${opening} + mouvements comptabilisés ${movements} = ${expected}, mais son solde de clôture est ${closing} (écart de ${apart})`,
        `L'estratto conto ${id ? `${id} ` : ''}non quadra: saldo iniziale ${opening} + movimenti contabilizzati ${movements} = ${expected}, ma il suo saldo finale è ${closing} (differenza di ${apart})`,
      )(l),
  },
  {
    match: /^entry (\S*) ?has no booking date$/,
    example: 'entry 2025112800001 has no booking date',
    to: ([ref], l) => {
      const named = ref ? `${ref} ` : '';
      return by(`die Bewegung ${named}hat kein Buchungsdatum`, `le mouvement ${named}n'a pas de date de comptabilisation`, `il movimento ${named}non ha una data di contabilizzazione`)(l);
    },
  },
  {
    match: /^no transaction group sent with message id (.+)$/,
    example: 'no transaction group sent with message id PAY-2025-11-01',
    to: ([id], l) => by(`kein Zahlungsauftrag mit der Meldungs-ID ${id} gesendet`, `aucun ordre de paiement envoyé avec l'identifiant de message ${id}`, `nessun ordine di pagamento inviato con l'ID messaggio ${id}`)(l),
  },
  // ---- payroll files (salary/payroll-file.ts, salary.service.ts): column names and wage type codes kept ----
  {
    match: /^(line 1: )?unknown column (.+); expected columns such as (.+)$/,
    words: [0],
    example: 'line 1: unknown column "Lohn"; expected columns such as period, employee, wagetype, amount',
    to: ([line, names, columns], l) =>
      (line ? by('Zeile 1: ', 'ligne 1 : ', 'riga 1: ')(l) : '') +
      by(`unbekannte Spalte ${names}; erwartet werden Spalten wie ${columns}`, `colonne inconnue ${names} ; colonnes attendues par exemple ${columns}`, `colonna sconosciuta ${names}; colonne attese ad esempio ${columns}`)(l),
  },
  {
    match: /^(line 1: )?two columns mean (\S+)$/,
    words: [0],
    example: 'line 1: two columns mean amount',
    to: ([line, column], l) => (line ? by('Zeile 1: ', 'ligne 1 : ', 'riga 1: ')(l) : '') + by(`zwei Spalten bedeuten ${column}`, `deux colonnes signifient ${column}`, `due colonne significano ${column}`)(l),
  },
  {
    match: /^(line 1: )?missing column ([^;]+)$/,
    words: [0, 1],
    example: 'line 1: missing column period, wagetype (or account, or debit and credit)',
    to: ([line, names], l) => {
      const list = names!.replace(' (or account, or debit and credit)', by(' (oder account, oder debit und credit)', ' (ou account, ou debit et credit)', ' (o account, o debit e credit)')(l));
      return (line ? by('Zeile 1: ', 'ligne 1 : ', 'riga 1: ')(l) : '') + by(`fehlende Spalte ${list}`, `colonne manquante ${list}`, `colonna mancante ${list}`)(l);
    },
  },
  {
    match: /^the file is not an XLSX workbook: (.+)$/,
    example: 'the file is not an XLSX workbook: Corrupted zip: missing 12 bytes.',
    to: ([detail], l) => by(`die Datei ist keine XLSX-Arbeitsmappe: ${detail}`, `le fichier n'est pas un classeur XLSX : ${detail}`, `il file non è una cartella di lavoro XLSX: ${detail}`)(l),
  },
  {
    // A cell's value, then what was expected (a period, a date).
    match: /^"(.*)": (expected a .+)$/,
    example: '"13.2026": expected a period YYYY-MM (or MM.YYYY)',
    to: ([value, message], l) => `"${value}": ${inner(message!, l)}`,
  },
  {
    match: /^"(.*)" is not a valid IBAN$/,
    example: '"CH00 1234" is not a valid IBAN',
    to: ([value], l) => by(`"${value}" ist keine gültige IBAN`, `"${value}" n'est pas un IBAN valable`, `"${value}" non è un IBAN valido`)(l),
  },
  {
    match: /^"(.*)" is not an account number \(4 to 10 digits\)$/,
    example: '"10A" is not an account number (4 to 10 digits)',
    to: ([value], l) => by(`"${value}" ist keine Kontonummer (4 bis 10 Ziffern)`, `"${value}" n'est pas un numéro de compte (4 à 10 chiffres)`, `"${value}" non è un numero di conto (da 4 a 10 cifre)`)(l),
  },
  {
    match: /^unknown wage type "(.*)": add it to the mapping or give the row's debit and credit accounts$/,
    example: 'unknown wage type "5999": add it to the mapping or give the row\'s debit and credit accounts',
    to: ([code], l) =>
      by(
        `unbekannte Lohnart "${code}": fügen Sie sie der Zuordnung hinzu oder geben Sie das Soll- und das Habenkonto der Zeile an`,
        `genre de salaire inconnu "${code}" : ajoutez-le à l'attribution ou indiquez les comptes au débit et au crédit de la ligne`,
        `genere di salario sconosciuto "${code}": aggiungerlo all'assegnazione o indicare i conti dare e avere della riga`,
      )(l),
  },
  {
    match: /^debit and credit are the same account (\S+)$/,
    example: 'debit and credit are the same account 5000',
    to: ([number], l) => by(`Soll und Haben sind dasselbe Konto ${number}`, `le débit et le crédit sont le même compte ${number}`, `dare e avere sono lo stesso conto ${number}`)(l),
  },
  {
    match: /^entry (.+?) does not balance: debit minus credit is (\S+) \(one-sided rows on lines (.+)\)$/,
    example: 'entry 2026-01 Anna Muster does not balance: debit minus credit is 10.00 (one-sided rows on lines 2, 3)',
    to: ([key, difference, lines], l) =>
      by(
        `Buchung ${key} ist nicht ausgeglichen: Soll minus Haben ist ${difference} (einseitige Zeilen: Zeilen ${lines})`,
        `l'écriture ${key} n'est pas équilibrée : débit moins crédit vaut ${difference} (lignes à un seul côté : lignes ${lines})`,
        `la registrazione ${key} non è in pareggio: dare meno avere è ${difference} (righe con un solo lato: righe ${lines})`,
      )(l),
  },
  {
    match: /^no IBAN for (.+): add an iban column to pay net salaries as claims$/,
    example: 'no IBAN for Anna Muster: add an iban column to pay net salaries as claims',
    to: ([employee], l) =>
      by(
        `keine IBAN für ${employee}: fügen Sie eine Spalte iban hinzu, um die Nettolöhne als Forderungen der Mitarbeitenden zu zahlen`,
        `pas d'IBAN pour ${employee} : ajoutez une colonne iban pour payer les salaires nets comme créances des collaborateurs`,
        `nessun IBAN per ${employee}: aggiungere una colonna iban per pagare i salari netti come crediti dei collaboratori`,
      )(l),
  },
  {
    match: /^this payroll file was imported already with the same choices \(import (\S+)\)$/,
    example: 'this payroll file was imported already with the same choices (import 3)',
    to: ([id], l) =>
      by(
        `diese Lohndatei wurde mit denselben Einstellungen bereits importiert (Import ${id})`,
        `ce fichier de salaires a déjà été importé avec les mêmes choix (import ${id})`,
        `questo file dei salari è già stato importato con le stesse scelte (importazione ${id})`,
      )(l),
  },
  // ---- invoice import (invoicing/import.service.ts) and company import (companies.service.ts): a row's problems ----
  {
    match: /^no customer with this (uuid|UID|name)$/,
    words: [0],
    example: 'no customer with this name',
    to: ([what], l) =>
      ({
        uuid: by('kein Kunde mit dieser uuid', 'aucun client avec cet uuid', 'nessun cliente con questo uuid'),
        UID: by('kein Kunde mit dieser UID', 'aucun client avec cet IDE', 'nessun cliente con questo IDI'),
        name: by('kein Kunde mit diesem Namen', 'aucun client avec ce nom', 'nessun cliente con questo nome'),
      })[what as 'uuid' | 'UID' | 'name'](l),
  },
  {
    match: /^(\d+) customers have this (uuid|UID|name): give the UID or the uuid$/,
    words: [1],
    example: '2 customers have this name: give the UID or the uuid',
    to: ([count, what], l) => {
      const which = {
        uuid: by('diese uuid', 'cet uuid', 'questo uuid'),
        UID: by('diese UID', 'cet IDE', 'questo IDI'),
        name: by('diesen Namen', 'ce nom', 'questo nome'),
      }[what as 'uuid' | 'UID' | 'name'](l);
      return by(`${count} Kunden haben ${which}: geben Sie die UID oder die uuid an`, `${count} clients ont ${which} : indiquez l'IDE ou l'uuid`, `${count} clienti hanno ${which}: indicare l'IDI o l'uuid`)(l);
    },
  },
  {
    match: /^invoice (\S+) has another customer on row (\d+)$/,
    example: 'invoice A has another customer on row 1',
    to: ([invoice, row], l) => by(`Rechnung ${invoice} hat auf Zeile ${row} einen anderen Kunden`, `la facture ${invoice} a un autre client à la ligne ${row}`, `la fattura ${invoice} ha un altro cliente alla riga ${row}`)(l),
  },
  {
    match: /^differs from row (\d+) of invoice (\S+)$/,
    example: 'differs from row 1 of invoice A',
    to: ([row, invoice], l) => by(`weicht von Zeile ${row} der Rechnung ${invoice} ab`, `diffère de la ligne ${row} de la facture ${invoice}`, `differisce dalla riga ${row} della fattura ${invoice}`)(l),
  },
  {
    match: /^no ledger account (\S+)$/,
    example: 'no ledger account 9999',
    to: ([number], l) => by(`kein Konto ${number}`, `aucun compte ${number}`, `nessun conto ${number}`)(l),
  },
  {
    // lib/csv.ts: a row with more or fewer values than the header has columns.
    match: /^expected (\d+) values, found (\d+)$/,
    example: 'expected 7 values, found 5',
    to: ([expected, found], l) => by(`${expected} Werte erwartet, ${found} gefunden`, `${expected} valeurs attendues, ${found} trouvées`, `attesi ${expected} valori, trovati ${found}`)(l),
  },
  {
    match: /^country "(.*)" unknown$/,
    example: 'country "Narnia" unknown',
    to: ([value], l) => by(`Land "${value}" unbekannt`, `pays "${value}" inconnu`, `paese "${value}" sconosciuto`)(l),
  },
  // ---- the database's triggers (migrations 0001, 0014), answered through fromDatabaseError ----
  {
    match: /^journal entry (\S+) is dated (\S+) which is on or before the lock date (\S+)$/,
    example: 'journal entry 12 is dated 2025-03-15 which is on or before the lock date 2025-03-31',
    to: ([id, date, lock], l) =>
      by(
        `Buchung ${id} ist vom ${date} und liegt damit am oder vor dem Sperrdatum ${lock}`,
        `l'écriture ${id} est datée du ${date}, soit à la date de verrouillage ${lock} ou avant`,
        `la registrazione ${id} è datata ${date}, cioè alla data di blocco ${lock} o prima`,
      )(l),
  },
  {
    match: /^journal entry (\S+) needs at least two postings$/,
    example: 'journal entry 12 needs at least two postings',
    to: ([id], l) => by(`Buchung ${id} braucht mindestens zwei Buchungszeilen`, `l'écriture ${id} doit compter au moins deux lignes d'écriture`, `la registrazione ${id} richiede almeno due righe di registrazione`)(l),
  },
  {
    match: /^journal entry (\S+) does not balance: debit minus credit is (\S+)$/,
    example: 'journal entry 12 does not balance: debit minus credit is 10.00',
    to: ([id, difference], l) =>
      by(`Buchung ${id} ist nicht ausgeglichen: Soll minus Haben ist ${difference}`, `l'écriture ${id} n'est pas équilibrée : débit moins crédit vaut ${difference}`, `la registrazione ${id} non è in pareggio: dare meno avere è ${difference}`)(l),
  },
  {
    match: /^journal entry (\S+) was posted by (\S+) (.*): change it through its document$/,
    example: 'journal entry 12 was posted by invoice 0f8fad5b-d9cb-469f-a165-70867728950e: change it through its document',
    to: ([id, source, ref], l) =>
      by(
        `Buchung ${id} wurde von ${source} ${ref} gebucht: ändern Sie sie über ihren Beleg`,
        `l'écriture ${id} a été passée par ${source} ${ref} : modifiez-la par sa pièce`,
        `la registrazione ${id} è stata registrata da ${source} ${ref}: modificarla tramite il suo giustificativo`,
      )(l),
  },
  {
    match: /^(?:line (\d+): )?the date (\S+) is on or before the lock date (\S+)$/,
    example: 'line 4: the date 2025-03-15 is on or before the lock date 2025-03-31',
    to: ([line, date, lock], l) =>
      (line ? by(`Zeile ${line}: `, `ligne ${line} : `, `riga ${line}: `)(l) : '') +
      by(`das Datum ${date} liegt am oder vor dem Sperrdatum ${lock}`, `la date ${date} est à la date de verrouillage ${lock} ou avant`, `la data ${date} è alla data di blocco ${lock} o prima`)(l),
  },
  {
    match: /^the salary date (\S+) is on or before the lock date$/,
    example: 'the salary date 2025-03-25 is on or before the lock date',
    to: ([date], l) => by(`das Lohndatum ${date} liegt am oder vor dem Sperrdatum`, `la date de salaire ${date} est à la date de verrouillage ou avant`, `la data del salario ${date} è alla data di blocco o prima`)(l),
  },
  {
    match: /^already exists \((.+)\)$/,
    example: 'already exists (ledger_account_instance_id_number_key)',
    to: ([constraint], l) => by(`existiert bereits (${constraint})`, `existe déjà (${constraint})`, `esiste già (${constraint})`)(l),
  },
  {
    match: /^still referenced or refers to a missing row \((.+)\)$/,
    example: 'still referenced or refers to a missing row (journal_entry_line_account_id_fkey)',
    to: ([constraint], l) =>
      by(`wird noch verwendet oder verweist auf einen fehlenden Datensatz (${constraint})`, `encore référencé ou renvoie à un enregistrement manquant (${constraint})`, `ancora referenziato o rimanda a un record mancante (${constraint})`)(l),
  },
  // ---- bank reconciliation: why an imported line was not matched (stored in English at import) ----
  {
    match: /^the end-to-end id names bill (\S+) of (\S+) (\S+), the debit is (\S+) (\S+): match by hand or book against an account$/,
    example: 'the end-to-end id names bill 7 of 1081.00 CHF, the debit is 1080.00 CHF: match by hand or book against an account',
    to: ([id, amount, currency, debit, debitCurrency], l) =>
      by(
        `die End-to-End-ID nennt die Lieferantenrechnung ${id} über ${amount} ${currency}, die Belastung ist ${debit} ${debitCurrency}: ordnen Sie von Hand zu oder buchen Sie gegen ein Konto`,
        `l'identifiant de bout en bout désigne la facture fournisseur ${id} de ${amount} ${currency}, le débit est de ${debit} ${debitCurrency} : attribuez à la main ou comptabilisez contre un compte`,
        `l'ID end-to-end indica la fattura fornitore ${id} di ${amount} ${currency}, l'addebito è di ${debit} ${debitCurrency}: abbinare a mano o registrare su un conto`,
      )(l),
  },
  {
    match: /^bill (\S+) \((\S+) (\S+)\) is booked at (\S+), the debit is (\S+) (\S+): more than 5 % apart; match by hand or book against an account$/,
    example: 'bill 7 (1000.00 EUR) is booked at 950.00, the debit is 1100.00 CHF: more than 5 % apart; match by hand or book against an account',
    to: ([id, amount, currency, booked, debit, debitCurrency], l) =>
      by(
        `Lieferantenrechnung ${id} (${amount} ${currency}) ist zu ${booked} gebucht, die Belastung ist ${debit} ${debitCurrency}: mehr als 5 % Abweichung; ordnen Sie von Hand zu oder buchen Sie gegen ein Konto`,
        `la facture fournisseur ${id} (${amount} ${currency}) est comptabilisée à ${booked}, le débit est de ${debit} ${debitCurrency} : plus de 5 % d'écart ; attribuez à la main ou comptabilisez contre un compte`,
        `la fattura fornitore ${id} (${amount} ${currency}) è registrata a ${booked}, l'addebito è di ${debit} ${debitCurrency}: più del 5 % di scarto; abbinare a mano o registrare su un conto`,
      )(l),
  },
  {
    match: /^invoice (\S+) \((\S+) (\S+)\) is booked at (\S+) (\S+), the credit is (\S+) (\S+): more than 5 % apart, a part payment\? Match by hand or book against an account$/,
    example: 'invoice 00042 (1000.00 EUR) is booked at 950.00 CHF, the credit is 800.00 CHF: more than 5 % apart, a part payment? Match by hand or book against an account',
    to: ([ref, amount, currency, booked, bookedCurrency, credit, creditCurrency], l) =>
      by(
        `Rechnung ${ref} (${amount} ${currency}) ist zu ${booked} ${bookedCurrency} gebucht, die Gutschrift ist ${credit} ${creditCurrency}: mehr als 5 % Abweichung, eine Teilzahlung? Ordnen Sie von Hand zu oder buchen Sie gegen ein Konto`,
        `la facture ${ref} (${amount} ${currency}) est comptabilisée à ${booked} ${bookedCurrency}, le crédit est de ${credit} ${creditCurrency} : plus de 5 % d'écart, un paiement partiel ? Attribuez à la main ou comptabilisez contre un compte`,
        `la fattura ${ref} (${amount} ${currency}) è registrata a ${booked} ${bookedCurrency}, l'accredito è di ${credit} ${creditCurrency}: più del 5 % di scarto, un pagamento parziale? Abbinare a mano o registrare su un conto`,
      )(l),
  },
  {
    match: /^(\d+) open bills \((.+)\) match amount and creditor: match by hand$/,
    example: '2 open bills (7, 9) match amount and creditor: match by hand',
    to: ([count, ids], l) =>
      by(
        `${count} offene Lieferantenrechnungen (${ids}) passen zu Betrag und Gläubiger: ordnen Sie von Hand zu`,
        `${count} factures fournisseurs ouvertes (${ids}) correspondent au montant et au créancier : attribuez à la main`,
        `${count} fatture fornitori aperte (${ids}) corrispondono a importo e creditore: abbinare a mano`,
      )(l),
  },
  {
    match: /^(\d+) open invoices \((.+)\) match amount and debtor name: match by hand$/,
    example: '2 open invoices (00041, 00042) match amount and debtor name: match by hand',
    to: ([count, refs], l) =>
      by(
        `${count} offene Rechnungen (${refs}) passen zu Betrag und Name des Schuldners: ordnen Sie von Hand zu`,
        `${count} factures ouvertes (${refs}) correspondent au montant et au nom du débiteur : attribuez à la main`,
        `${count} fatture aperte (${refs}) corrispondono a importo e nome del debitore: abbinare a mano`,
      )(l),
  },
  {
    match: /^(bill|invoice) (\S+): (.+)$/,
    words: [0],
    example: 'bill 7: the date 2025-03-15 is on or before the lock date 2025-03-31',
    to: ([kind, id, text], l) =>
      kind === 'bill'
        ? by(`Lieferantenrechnung ${id}: ${inner(text!, l)}`, `facture fournisseur ${id} : ${inner(text!, l)}`, `fattura fornitore ${id}: ${inner(text!, l)}`)(l)
        : by(`Rechnung ${id}: ${inner(text!, l)}`, `facture ${id} : ${inner(text!, l)}`, `fattura ${id}: ${inner(text!, l)}`)(l),
  },
  {
    match: /^bank charges: (.+)$/,
    example: 'bank charges: the date 2025-03-15 is on or before the lock date 2025-03-31',
    to: ([text], l) => by(`Bankspesen: ${inner(text!, l)}`, `frais bancaires : ${inner(text!, l)}`, `spese bancarie: ${inner(text!, l)}`)(l),
  },
  {
    // closing/book's 409: the list of failed checks is already in the request's language (server-texts.ts).
    match: /^(\d+) checks? failed for the fiscal year (\S+) \(resolve it or acknowledge it with a note\): (.+)$/,
    example: '1 check failed for the fiscal year 2025 (resolve it or acknowledge it with a note): "Receivables agree with the open invoices": 1100 Debitoren: debit balance CHF 300.00 at 31.12.2025',
    to: ([count, year, list], l) =>
      by(
        `${count} Prüfung(en) fehlgeschlagen für das Geschäftsjahr ${year} (beheben Sie sie oder bestätigen Sie sie mit einer Notiz): ${list}`,
        `${count} contrôle(s) en échec pour l'exercice ${year} (corrigez-les ou confirmez-les avec une note) : ${list}`,
        `${count} controllo/i non superato/i per l'esercizio ${year} (correggerli o confermarli con una nota): ${list}`,
      )(l),
  },
  {
    match: /^entry (\S+) is dated (\S+) and entry (\S+) (\S+): only entries of the same date can be merged$/,
    example: 'entry 8 is dated 2026-01-02 and entry 7 2026-01-01: only entries of the same date can be merged',
    to: ([a, dateA, b, dateB], l) =>
      by(
        `Buchung ${a} ist vom ${dateA} und Buchung ${b} vom ${dateB}: nur Buchungen mit demselben Datum können zusammengeführt werden`,
        `l'écriture ${a} est datée du ${dateA} et l'écriture ${b} du ${dateB} : seules des écritures de même date peuvent être fusionnées`,
        `la registrazione ${a} è datata ${dateA} e la registrazione ${b} ${dateB}: solo registrazioni della stessa data possono essere unite`,
      )(l),
  },
];

const FIELD_PATH = /^[\w.[\]-]+$/;

/**
 * `message` in `language` for a 4xx body: the domain's catalog first (the shared validation
 * messages), then the server's fixed messages, its patterns, and last the "field.path: message"
 * form (the `error` of a 400) with the path kept. English, or a message without a translation,
 * comes back unchanged.
 */
export function translateServerMessage(message: string, language: MessageLanguage): string {
  if (language === 'en') return message;
  const shared = translateMessage(message, language);
  if (shared !== message) return shared;
  const exact = SERVER_MESSAGES.get(message);
  if (exact) return exact[language];
  for (const pattern of SERVER_PATTERNS) {
    const found = pattern.match.exec(message);
    if (found) return pattern.to(found.slice(1), language);
  }
  const separator = message.indexOf(': ');
  if (separator > 0 && FIELD_PATH.test(message.slice(0, separator))) {
    const rest = message.slice(separator + 2);
    const translated = translateServerMessage(rest, language);
    if (translated !== rest) return `${message.slice(0, separator)}: ${translated}`;
  }
  return message;
}
