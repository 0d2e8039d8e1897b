// Checks answers of the real API against the schemas of the server's own
// OpenAPI document (JSON Schema 2020-12), with ajv.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { expect } from 'chai';

// ajv-formats is CommonJS: imported from ESM, its plugin is the `default` of the module object.
const addFormats = (formats as unknown as { default: (ajv: Ajv2020) => unknown }).default;

/** Validates answers against one document's response schemas. */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly document: { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>> }, private readonly id: string) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: id });
  }

  /** Asserts that `body` fits the schema of `method path` for `status` (or the document's 4XX/5XX). */
  check(path: string, method: string, status: number, body: unknown): void {
    const responses = this.document.paths[path]?.[method]?.responses;
    expect(responses, `${method} ${path} is in the document`).to.not.equal(undefined);
    const key = String(status) in responses! ? String(status) : `${String(status)[0]}XX`;
    expect(responses![key]?.content?.['application/json'], `${method} ${path} documents ${status}`).to.not.equal(undefined);
    const pointer = ['paths', path, method, 'responses', key, 'content', 'application/json', 'schema'].map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    const ref = `${this.id}#/${pointer}`;
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    expect(validate(body), `${method} ${path} ${status}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).to.equal(true);
  }
}
