/** This language's feature catalogs as one chunk: one request when the language loads (issue 18 §1). */
export default Object.values(import.meta.glob<Record<string, string>>('./*.json', { eager: true, import: 'default' }));
