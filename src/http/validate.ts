// Request-shape validation with ajv: unknown keys and wrong types become a 422
// validation_failed whose `fields` names each offending key.
import { createRequire } from 'node:module';
import type { Ajv, JSONSchemaType, ErrorObject, ValidateFunction } from 'ajv';
import { AppError } from '../errors/app-error.ts';

// Loaded with the first body checked (synchronously, like sanitize-html):
// loading ajv and making its instance cost every start ~75 ms of CPU.
const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

function validators(): Ajv {
  ajv ??= new (require('ajv') as { Ajv: typeof Ajv }).Ajv({ allErrors: true, strict: true, coerceTypes: false, useDefaults: false });
  return ajv;
}

/**
 * Compiles a JSON schema into a function that returns the typed body or throws
 * validation_failed. Schemas should set additionalProperties: false.
 */
export function compileBody<T>(schema: JSONSchemaType<T>): (body: unknown) => T {
  // Compiled by the first body it checks: compiling the routers' few dozen schemas cost every start ~0.1 s before its first answer.
  let validate: ValidateFunction<T> | undefined;
  return (body: unknown): T => {
    validate ??= validators().compile(schema);
    if (validate(body)) return body;
    throw new AppError('validation_failed', 'The request body did not pass validation.', { fields: fieldErrors(validate.errors ?? []) });
  };
}

function fieldErrors(errors: ErrorObject[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors) {
    const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const params = error.params as { additionalProperty?: string; missingProperty?: string; allowedValues?: unknown[] };
    if (error.keyword === 'additionalProperties' && params.additionalProperty) {
      fields[join(base, params.additionalProperty)] = `Unknown field "${params.additionalProperty}".`;
    } else if (error.keyword === 'required' && params.missingProperty) {
      fields[join(base, params.missingProperty)] = `The field "${params.missingProperty}" is required.`;
    } else if (error.keyword === 'enum' && params.allowedValues) {
      fields[base || 'body'] = `Must be one of: ${params.allowedValues.join(', ')}.`;
    } else {
      fields[base || 'body'] ??= `Invalid value: ${error.message ?? 'not allowed'}.`;
    }
  }
  return fields;
}

function join(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}
