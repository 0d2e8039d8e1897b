/** `count` with the word that goes with it: "1 entry", "3 entries". */
export function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
