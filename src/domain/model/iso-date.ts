// The dates of content files as the API answers them: ISO 8601 in UTC.

// toISOString's own form with a day and hour every month and day has, so
// that formatting the parsed time gives the very same text back; or that
// form without its milliseconds (as people write dates), which formatting
// gives back with `.000`.
const ISO_FORM = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{3})?Z$/;

/**
 * A file's date as the ISO 8601 UTC text the API answers, or undefined when
 * Date.parse cannot read it. The server writes dates in that form already;
 * those are returned as they are, which spares the formatting of tens of
 * thousands of dates at every start (and those written without
 * milliseconds get them added).
 */
export function isoDate(text: string): string | undefined {
  if (ISO_FORM.test(text)) return text.length === 24 ? text : `${text.slice(0, 19)}.000Z`;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
