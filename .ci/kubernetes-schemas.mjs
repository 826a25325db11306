// Makes self-contained Kubernetes JSON schemas for kubeconform from the ones the PyPI package
// kubernetes-validate ships. Those refer to one shared file by an absolute path
// ("/api/_definitions.json#/$defs/<name>"), which kubeconform cannot load; here each kind's file gets
// the definitions it reaches copied into its own `$defs`, and its refs point there ("#/$defs/<name>").
//
//   node .ci/kubernetes-schemas.mjs <kubernetes-json-schema folder> <output folder> <version, e.g. v1.33.0>
//
// Reads <in>/<version>-local-strict/*.json and writes <out>/<version>-standalone-strict/<same name>.json,
// the layout kubeconform's -schema-location template
// "<out>/{{ .NormalizedKubernetesVersion }}-standalone{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" reads.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [source, output, version] = process.argv.slice(2);
if (!source || !output || !/^v\d+\.\d+\.\d+$/.test(version ?? '')) {
  console.error('usage: kubernetes-schemas.mjs <kubernetes-json-schema folder> <output folder> <vX.Y.Z>');
  process.exit(2);
}
const from = join(source, `${version}-local-strict`);
const to = join(output, `${version}-standalone-strict`);
const PREFIX = '/api/_definitions.json#/$defs/';
const definitions = JSON.parse(readFileSync(join(from, '_definitions.json'), 'utf8')).$defs;

/** Rewrites refs in place and collects the definition names reached. */
function rewrite(node, reached) {
  if (Array.isArray(node)) {
    for (const item of node) rewrite(item, reached);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    // Kind files refer by the absolute path, definitions among themselves by `#/$defs/<name>`.
    const prefix = typeof value === 'string' ? [PREFIX, '#/$defs/'].find((candidate) => value.startsWith(candidate)) : undefined;
    if (key === '$ref' && prefix !== undefined) {
      const name = value.slice(prefix.length);
      if (!(name in definitions)) throw new Error(`unknown definition ${name}`);
      node.$ref = `#/$defs/${name}`;
      reached.add(name);
    } else rewrite(value, reached);
  }
}

mkdirSync(to, { recursive: true });
let count = 0;
for (const file of readdirSync(from)) {
  if (!file.endsWith('.json') || file === '_definitions.json') continue;
  const schema = JSON.parse(readFileSync(join(from, file), 'utf8'));
  const reached = new Set();
  rewrite(schema, reached);
  const defs = {};
  // Each definition reached brings the ones it reaches (a copy, rewritten the same way).
  for (const name of reached) {
    const copy = structuredClone(definitions[name]);
    rewrite(copy, reached);
    defs[name] = copy;
  }
  delete schema.$id;
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  writeFileSync(join(to, file), JSON.stringify(schema));
  count += 1;
}
console.log(`${count} schemas in ${to}`);
