/**
 * Deterministic real-world inputs of a given size for the third-party Go CLI tests (go-cli.test.ts):
 * each generator returns the file text and what a correct tool must make of it, computed here
 * independently of the tool.
 */

/** A YAML document of `items` records; `value` is the same data as JavaScript, for comparing yq's JSON. */
export function yamlInput(minBytes: number): { text: string; value: { items: { id: number; name: string; tags: string[]; price: number; active: boolean }[] } } {
  const items: { id: number; name: string; tags: string[]; price: number; active: boolean }[] = [];
  const parts: string[] = ['# inventory export\nitems:\n'];
  let size = parts[0]!.length;
  for (let id = 0; size < minBytes; id += 1) {
    const item = { id, name: `item-${id}`, tags: [`t${id % 7}`, `group-${id % 13}`], price: (id % 1000) + 0.25, active: id % 3 !== 0 };
    items.push(item);
    const text = `  - id: ${id}\n    name: ${item.name}\n    tags: [${item.tags.join(', ')}]\n    price: ${item.price}\n    active: ${item.active}\n`;
    parts.push(text);
    size += text.length;
  }
  return { text: parts.join(''), value: { items } };
}

/** A CSV of sales rows and, per region, the row count and the sum of `amount` (integers, exact in any engine). */
export function csvInput(minBytes: number): { text: string; totals: Map<string, { rows: number; amount: number }> } {
  const regions = ['north', 'east', 'south', 'west', 'central'];
  const totals = new Map<string, { rows: number; amount: number }>();
  const parts: string[] = ['id,region,product,amount\n'];
  let size = parts[0]!.length;
  for (let id = 1; size < minBytes; id += 1) {
    const region = regions[(id * 7) % regions.length]!;
    const amount = (id * 37) % 1000;
    const entry = totals.get(region) ?? { rows: 0, amount: 0 };
    totals.set(region, { rows: entry.rows + 1, amount: entry.amount + amount });
    const line = `${id},${region},product number ${id % 311},${amount}\n`;
    parts.push(line);
    size += line.length;
  }
  return { text: parts.join(''), totals };
}

/**
 * An HCL file written carelessly (extra spaces around `=`, ragged indentation) and the same file as
 * `hclfmt` writes it: one space around `=`, `=` aligned within a block, two-space indentation.
 */
export function hclInput(minBytes: number): { text: string; formatted: string } {
  const sloppy: string[] = [];
  const tidy: string[] = [];
  let size = 0;
  for (let index = 0; size < minBytes; index += 1) {
    const block = `resource "bucket" "b${index}" {\n    name    =     "bucket-${index}"\n  size=${index % 500}\n      versioning   = ${index % 2 === 0}\n}\n\n`;
    sloppy.push(block);
    tidy.push(`resource "bucket" "b${index}" {\n  name       = "bucket-${index}"\n  size       = ${index % 500}\n  versioning = ${index % 2 === 0}\n}\n\n`);
    size += block.length;
  }
  return { text: sloppy.join(''), formatted: tidy.join('') };
}

/** A Go source file of many small functions (with characters HTML must escape). */
export function goSourceInput(minBytes: number): string {
  const parts: string[] = ['package big\n\nimport "strings"\n\n'];
  let size = parts[0]!.length;
  for (let index = 0; size < minBytes; index += 1) {
    const text = `// F${index} reports whether n < ${index} && n > -${index}.\nfunc F${index}(n int) bool {\n\tif n < ${index} && n > -${index} {\n\t\treturn strings.Contains("<a href=\\"x\\">${index}</a>", "&")\n\t}\n\treturn false\n}\n\n`;
    parts.push(text);
    size += text.length;
  }
  return parts.join('');
}

/** The text an HTML rendering shows: tags dropped, the entities chroma writes decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}
