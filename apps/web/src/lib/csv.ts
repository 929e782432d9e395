/** A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP "CSV injection"). */
export const safeCsvText = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
