/** Test helper: every schema object of a converted schema, with its JSON pointer. */
import { isPlainObject } from '../../src/schema/schema-keywords.ts';

export interface VisitedSchema {
  location: string;
  schema: Record<string, unknown>;
}

/** Walks properties / items / anyOf / allOf / oneOf / additionalProperties, the keywords that hold schemas. */
export function collectSchemas(root: unknown, location = '#'): VisitedSchema[] {
  if (!isPlainObject(root)) return [];
  const visited: VisitedSchema[] = [{ location, schema: root }];
  const properties = root['properties'];
  if (isPlainObject(properties)) {
    for (const [name, subschema] of Object.entries(properties)) visited.push(...collectSchemas(subschema, `${location}/properties/${name}`));
  }
  for (const keyword of ['items', 'additionalProperties', 'not']) {
    const value = root[keyword];
    if (Array.isArray(value)) value.forEach((entry, index) => visited.push(...collectSchemas(entry, `${location}/${keyword}/${index}`)));
    else visited.push(...collectSchemas(value, `${location}/${keyword}`));
  }
  for (const keyword of ['anyOf', 'allOf', 'oneOf']) {
    const value = root[keyword];
    if (Array.isArray(value)) value.forEach((entry, index) => visited.push(...collectSchemas(entry, `${location}/${keyword}/${index}`)));
  }
  return visited;
}

/** Every key of every object anywhere in a JSON value (schema keywords and property names alike). */
export function collectAllKeys(value: unknown): Set<string> {
  const keys = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isPlainObject(node)) {
      for (const [key, child] of Object.entries(node)) {
        keys.add(key);
        visit(child);
      }
    }
  };
  visit(value);
  return keys;
}
