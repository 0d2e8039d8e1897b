/** Names joined with commas, the first `shown` of them and a count of the rest: "a.png, b.png, c.png and 4 more". */
export function nameList(names: readonly string[], shown: number): string {
  return names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
