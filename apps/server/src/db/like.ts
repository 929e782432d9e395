/** `%text%` for ILIKE with the pattern characters of `text` (%, _ and \) taken literally. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
