// Checks answers against docs/openapi.json with Ajv (OpenAPI 3.1 schemas are JSON Schema 2020-12):
// the status must be declared for the operation, the media type for that status, and the body must
// match that media type's schema (JSON bodies parsed, any other body as its text).
import { readFileSync } from 'node:fs';

import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const DOCUMENT_URL = new URL('../../../../docs/openapi.json', import.meta.url);
const DOCUMENT_ID = 'openapi.json';

export function loadDocument() {
  return JSON.parse(readFileSync(DOCUMENT_URL, 'utf8'));
}

export function createResponseValidator(document = loadDocument()) {
  // strict: false because the document is not itself a schema: Ajv must skip its OpenAPI keywords
  // (paths, responses, example) while resolving the schemas' $refs inside it.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI's format for bytes: an annotation, nothing to check on text.
  ajv.addFormat('binary', true);
  ajv.addSchema(document, DOCUMENT_ID);
  const compiled = new Map();

  /**
   * The mismatches of one answer, as sentences; empty when it matches the document.
   * @param {{ method: string, schemaPath: string, status: number, contentType: string | null, body: string }} answer
   */
  return function mismatches({ method, schemaPath, status, contentType, body }) {
    const where = `${method.toUpperCase()} ${schemaPath} → ${status}`;
    const operation = document.paths[schemaPath]?.[method.toLowerCase()];
    if (!operation) return [`${where}: no such operation in the document`];
    const statusKey = [String(status), `${String(status)[0]}XX`, 'default'].find((key) => key in operation.responses);
    if (!statusKey) return [`${where}: status not declared (declared: ${Object.keys(operation.responses).join(', ')})`];

    // Follow a response $ref (#/components/responses/…) to find the JSON pointer of its content.
    let pointer = ['paths', schemaPath, method.toLowerCase(), 'responses', statusKey];
    let response = operation.responses[statusKey];
    if (response.$ref) {
      pointer = response.$ref.replace(/^#\//, '').split('/').map(unescapePointer);
      response = pointer.reduce((node, key) => node[key], document);
    }
    const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? null;
    if (!response.content) {
      return body === '' ? [] : [`${where}: a body was sent but the document declares none`];
    }
    if (!mediaType || !(mediaType in response.content)) {
      return [`${where}: media type ${mediaType} not declared (declared: ${Object.keys(response.content).join(', ')})`];
    }
    if (!response.content[mediaType].schema) return [];

    const schemaRef = `${DOCUMENT_ID}#/${[...pointer, 'content', mediaType, 'schema'].map(escapePointer).join('/')}`;
    if (!compiled.has(schemaRef)) compiled.set(schemaRef, ajv.compile({ $ref: schemaRef }));
    const validate = compiled.get(schemaRef);
    let value = body;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        value = JSON.parse(body);
      } catch {
        return [`${where}: ${mediaType} body is not JSON`];
      }
    }
    if (validate(value)) return [];
    return validate.errors.map((error) => `${where} (${mediaType}): ${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`);
  };
}

/**
 * An openapi-fetch middleware that keeps every answer the client gets (before it is parsed), for
 * checking afterwards: push into `answers`.
 */
export function recordAnswers(answers) {
  return {
    async onResponse({ request, response, schemaPath }) {
      answers.push({
        method: request.method,
        schemaPath,
        status: response.status,
        contentType: response.headers.get('content-type'),
        body: request.method === 'HEAD' ? '' : await response.clone().text(),
      });
    },
  };
}

function escapePointer(segment) {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

function unescapePointer(segment) {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}
