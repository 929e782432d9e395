/** `text` with the LIKE pattern characters (%, _ and \, the default ESCAPE) taken literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `%text%` for ILIKE with the pattern characters of `text` taken literally. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;
