// Compiles lomi-control's published schemas as the official TypeScript SDK does (its Ajv, options
// and formats: node_modules/@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js), compiles
// every pattern as ECMAScript with the u flag (as Ajv does), and matches sample strings against each
// pattern body, whole. Run by SchemaPortabilityTests.
// Usage: node schema-portability.mjs <input.json>; input {schemas:[{tool,kind,schema}],
// patterns:[{tool,kind,path,pattern}], bodies:[...], probes:[...]}. Prints one JSON object:
// {schemaErrors:[{tool,kind,error}], patternErrors:[{tool,kind,path,pattern,error}], matches:{body: "0110..."}}.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true });
addFormats(ajv);

const out = { schemaErrors: [], patternErrors: [], matches: {} };
for (const { tool, kind, schema } of input.schemas) {
  try {
    ajv.compile(schema);
  } catch (e) {
    out.schemaErrors.push({ tool, kind, error: String(e.message) });
  }
}
for (const { tool, kind, path, pattern } of input.patterns) {
  try {
    new RegExp(pattern, 'u');
  } catch (e) {
    out.patternErrors.push({ tool, kind, path, pattern, error: String(e.message) });
  }
}
for (const body of input.bodies) {
  let whole;
  try {
    whole = new RegExp('^(?:' + body + ')$', 'u');
  } catch {
    continue;
  }
  out.matches[body] = input.probes.map((probe) => (whole.test(probe) ? '1' : '0')).join('');
}
console.log(JSON.stringify(out));
