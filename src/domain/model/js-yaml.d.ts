// Types for the part of js-yaml 3 that front-matter.ts uses; the package
// ships none and @types/js-yaml is not installed. js-yaml comes with
// gray-matter (its own YAML engine), pinned at 3.x there.
declare module 'js-yaml' {
  namespace jsYaml {
    /** A scalar type: `resolve` says whether a plain scalar is one, `construct` builds the value. */
    interface TypeOptions {
      kind: 'scalar';
      resolve?: (data: string | null) => boolean;
      construct?: (data: string | null) => unknown;
    }

    class Type {
      constructor(tag: string, options: TypeOptions);
    }

    class Schema {
      constructor(definition: { include?: Schema[]; implicit?: Type[]; explicit?: Type[] });
    }

    /** Strings, sequences and mappings only: nothing is resolved implicitly. */
    const FAILSAFE_SCHEMA: Schema;

    /** Parses one YAML document; throws a YAMLException on invalid YAML. */
    function load(text: string, options?: { schema?: Schema; filename?: string }): unknown;
  }
  export = jsYaml;
}
