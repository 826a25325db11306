/**
 * BM25 ranking over a few weighted text fields per document (BM25F-style: each field scored with its
 * own length normalization, then weighted and summed). Written here rather than taken from a search
 * library because the corpus is a host's tool list (tens to a few hundred short documents) indexed
 * afresh per query, which needs no persistence, no incremental updates and no fuzzy matching: ~80
 * lines instead of a new runtime dependency.
 *
 * Tokens: lower-cased runs of letters and digits, with snake_case and camelCase split, a plural `s`
 * dropped and a few English stop words left out. A query token of three or more characters also
 * matches document tokens it is a prefix of ("proc" finds "process"), at half weight.
 */

const K1 = 1.2;
const B = 0.75;
const PREFIX_MATCH_WEIGHT = 0.5;
const MIN_PREFIX_LENGTH = 3;
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'is', 'it', 'its', 'of', 'on', 'or', 'that', 'the', 'this', 'to', 'with']);

export function tokenize(text: string): string[] {
  const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word)).map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

export interface Bm25Document<Field extends string> {
  id: string;
  fields: Readonly<Record<Field, string>>;
}

export interface Bm25Hit {
  id: string;
  score: number;
}

interface IndexedDocument<Field extends string> {
  id: string;
  /** Per field: token → count, and the field's length in tokens. */
  fields: Record<Field, { counts: Map<string, number>; length: number }>;
  /** Every distinct token of the document, for document frequencies and prefix matches. */
  terms: Set<string>;
}

export class Bm25Index<Field extends string> {
  private readonly documents: IndexedDocument<Field>[];
  private readonly averageLength = new Map<Field, number>();
  private readonly documentFrequency = new Map<string, number>();

  constructor(documents: readonly Bm25Document<Field>[], private readonly weights: Readonly<Record<Field, number>>) {
    const fieldNames = Object.keys(weights) as Field[];
    this.documents = documents.map((document) => {
      const terms = new Set<string>();
      const fields = {} as IndexedDocument<Field>['fields'];
      for (const field of fieldNames) {
        const tokens = tokenize(document.fields[field]);
        const counts = new Map<string, number>();
        for (const token of tokens) {
          counts.set(token, (counts.get(token) ?? 0) + 1);
          terms.add(token);
        }
        fields[field] = { counts, length: tokens.length };
      }
      for (const term of terms) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      return { id: document.id, fields, terms };
    });
    for (const field of fieldNames) {
      const total = this.documents.reduce((sum, document) => sum + document.fields[field].length, 0);
      this.averageLength.set(field, this.documents.length > 0 ? Math.max(1, total / this.documents.length) : 1);
    }
  }

  /** Documents with a positive score, best first (ties by id), at most `limit`. */
  search(query: string, limit: number): Bm25Hit[] {
    const queryTerms = [...new Set(tokenize(query))];
    const hits: Bm25Hit[] = [];
    for (const document of this.documents) {
      let score = 0;
      for (const queryTerm of queryTerms) {
        for (const term of document.terms) {
          const weight = term === queryTerm ? 1 : queryTerm.length >= MIN_PREFIX_LENGTH && term.startsWith(queryTerm) ? PREFIX_MATCH_WEIGHT : 0;
          if (weight > 0) score += weight * this.termScore(document, term);
        }
      }
      if (score > 0) hits.push({ id: document.id, score });
    }
    hits.sort((left, right) => right.score - left.score || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
    return hits.slice(0, limit);
  }

  private termScore(document: IndexedDocument<Field>, term: string): number {
    const frequency = this.documentFrequency.get(term) ?? 0;
    const idf = Math.log(1 + (this.documents.length - frequency + 0.5) / (frequency + 0.5));
    let weighted = 0;
    for (const [field, weight] of Object.entries(this.weights) as [Field, number][]) {
      const { counts, length } = document.fields[field];
      const count = counts.get(term) ?? 0;
      if (count === 0) continue;
      const norm = 1 - B + (B * length) / (this.averageLength.get(field) ?? 1);
      weighted += (weight * count * (K1 + 1)) / (count + K1 * norm);
    }
    return idf * weighted;
  }
}
