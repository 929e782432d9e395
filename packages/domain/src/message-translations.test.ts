import { describe, expect, it } from 'vitest';
import { amountMessage, amountTooLargeMessage, expectedTypeMessage, qrBillCharacterMessage, qrBillLengthMessage, validationMessages } from './messages.js';
import { messageLanguageOf, translatedMessages, translateMessage } from './message-translations.js';

describe('translateMessage (issue 17 §3)', () => {
  it('has German, French and Italian for every validation message', () => {
    const known = new Set(translatedMessages());
    expect(Object.values(validationMessages).filter((text) => !known.has(text))).toEqual([]);
    for (const text of Object.values(validationMessages)) {
      for (const language of ['de', 'fr', 'it'] as const) {
        const translated = translateMessage(text, language);
        expect(translated, `${language}: ${text}`).not.toBe('');
        // Digits the rule names (8, 99 %, 1000 and 9999) survive the translation.
        expect(translated.match(/\d+/g) ?? []).toEqual(expect.arrayContaining(text.match(/\d+/g) ?? []));
      }
    }
  });

  it('writes Swiss German (ss, never ß)', () => {
    for (const text of translatedMessages()) expect(translateMessage(text, 'de')).not.toContain('ß');
  });

  it('keeps English as it is, and an unknown message as it is', () => {
    expect(translateMessage(validationMessages.fieldRequired, 'en')).toBe('This field is required');
    expect(translateMessage('no such message', 'de')).toBe('no such message');
  });

  it('translates the messages with values, keeping the values', () => {
    expect(translateMessage(expectedTypeMessage('string'), 'de')).toBe('Typ string erwartet');
    expect(translateMessage(qrBillLengthMessage('Name', 70), 'fr')).toBe('Name : au plus 70 caractères pour les QR-factures suisses');
    expect(translateMessage(qrBillCharacterMessage('Ω'), 'it')).toBe('Il carattere "Ω" non è ammesso nei pagamenti svizzeri');
    expect(translateMessage(amountTooLargeMessage('99999999999999.99'), 'de')).toBe('der Betrag muss zwischen -99999999999999.99 und 99999999999999.99 liegen');
    expect(translateMessage(amountMessage(2), 'fr')).toBe('le montant doit être un nombre décimal avec au plus 2 décimales');
  });

  it("translates a 400's error line after its field path", () => {
    expect(translateMessage('lines.0.amount: amount must be greater than 0', 'de')).toBe('lines.0.amount: der Betrag muss grösser als 0 sein');
    expect(translateMessage('Note: something else', 'de')).toBe('Note: something else');
  });
});

describe('messageLanguageOf (Accept-Language, RFC 9110 §12.5.4)', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['*', 'en'],
    ['de-CH', 'de'],
    ['fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
    ['es, it;q=0.5', 'it'],
    ['en;q=0.4, de;q=0.8', 'de'],
    ['de;q=0, fr', 'fr'],
    ['ja, zh', 'en'],
  ])('%s → %s', (header, language) => {
    expect(messageLanguageOf(header)).toBe(language);
  });
});
