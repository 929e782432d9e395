// The books' calendar is Switzerland's: a document dated "today" by the server or the browser gets
// the same date, whatever either's time zone (from 23:00 UTC, 22:00 in summer, UTC is a day behind).
const swissIsoDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Switzerland, YYYY-MM-DD. */
export const todayInSwitzerland = (): string => swissIsoDate.format(new Date());
