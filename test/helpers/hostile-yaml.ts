// YAML made to hurt a parser's users: aliases of aliases ("billion laughs").

/** Mapping lines where `l{n}` is a list of nine aliases of `l{n-1}`: 9^(levels+1) values once expanded. */
export function billionLaughs(levels: number): string {
  const lines = ['l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let level = 1; level <= levels; level += 1) lines.push(`l${level}: &l${level} [${Array(9).fill(`*l${level - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}
