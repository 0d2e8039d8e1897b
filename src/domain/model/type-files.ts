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

/**
 * The type name a repo path gives when it is a type file, `{ws}/types/{name}.yaml`
 * directly in the types folder; undefined for any other path (a subfolder, another name).
 * One reading for the index, push validation and the changes feed.
 */
export function typeNameOfPath(workspace: string, path: string): string | undefined {
  const folder = `${typesDir(workspace)}/`;
  return path.startsWith(folder) ? TYPE_FILE.exec(path.slice(folder.length))?.[1] : undefined;
}

/** The type files among `paths` (typeNameOfPath), each with its type name, in their order. */
export function typeFilesAmong(workspace: string, paths: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of paths) {
    const name = typeNameOfPath(workspace, path);
    if (name !== undefined) files.set(path, name);
  }
  return files;
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
