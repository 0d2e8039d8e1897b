// How a content type maps onto {ws}/types/{name}.yaml. The name is the file
// name and is not repeated inside the file.
import type { ContentType } from './content-type.ts';
import { readYaml, writeYaml } from './yaml-text.ts';

/** A type file name inside `{ws}/types/`; the capture is the type name. */
export const TYPE_FILE = /^([a-z0-9-]{1,64})\.yaml$/;

/** The folder of a workspace's type files. */
export function typesDir(workspace: string): string {
  return `${workspace}/types`;
}

/** The repo path of one type's YAML file. */
export function typeFilePath(workspace: string, name: string): string {
  return `${typesDir(workspace)}/${name}.yaml`;
}

/** Serializes a type to its YAML file text. */
export function typeToYaml(type: ContentType): string {
  const { name: _name, ...stored } = type;
  return writeYaml(stored);
}

/** Parses a type file's YAML into a plain object with the name added; throws a plain Error when it is not a mapping. */
export function typeYamlToInput(name: string, text: string): Record<string, unknown> {
  const parsed = readYaml(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The type file is not a YAML mapping.');
  return { ...(parsed as Record<string, unknown>), name };
}
