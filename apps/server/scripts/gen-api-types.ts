/** `npm run gen:api`: writes apps/web/src/lib/api-schema.d.ts from the server's route schemas. */
import { writeFileSync } from 'node:fs';
import { API_SCHEMA_FILE, renderApiTypes, servedOpenApiDocument } from './api-types.js';

writeFileSync(API_SCHEMA_FILE, await renderApiTypes(await servedOpenApiDocument()));
console.log(`wrote ${API_SCHEMA_FILE}`);
