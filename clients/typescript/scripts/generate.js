// Regenerates the typed operations (src/schema.d.ts) from the service's OpenAPI document,
// docs/openapi.json, with the pinned openapi-typescript.
//
//   node clients/typescript/scripts/generate.js [output folder]
//
// The folder defaults to clients/typescript/src. Writing elsewhere lets a check generate afresh
// and compare with the committed file. The programmatic API is used rather than the command line
// tool so that no Redocly configuration found in the working folder changes the output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const documentUrl = new URL('../../../docs/openapi.json', import.meta.url);
const outputDir = resolve(process.argv[2] ?? resolve(packageDir, 'src'));

const ast = await openapiTS(documentUrl);
mkdirSync(outputDir, { recursive: true });
const output = resolve(outputDir, 'schema.d.ts');
writeFileSync(output, COMMENT_HEADER + astToString(ast));
console.log(`wrote ${output}`);
