// The line readers of the content repo's YAML (front matter, nested files)
// must read whatever they take exactly as the `yaml` package does, the
// reference of domain/model/yaml-text.ts.
import { expect } from 'chai';
import YAML from 'yaml';

/** Whether `read` took `text`; when it did, expects its value to be the `yaml` package's (which must not refuse it). */
export function readsAsYamlDoes(read: (text: string) => unknown, text: string): boolean {
  const fast = read(text);
  if (fast !== undefined) expect({ value: fast }, JSON.stringify(text)).to.deep.equal(yamlOutcome(text));
  return fast !== undefined;
}

function yamlOutcome(text: string): { value: unknown } | { error: true } {
  try {
    return { value: YAML.parse(text) as unknown };
  } catch {
    return { error: true };
  }
}
