// The library's categories as the choices of a select, after a first choice
// for none (`''`) named as its place asks ("No category", "At the top").
export function categoryOptions(categories: string[], none: string): [string, string][] {
  return [['', none], ...categories.map((category): [string, string] => [category, category])];
}
