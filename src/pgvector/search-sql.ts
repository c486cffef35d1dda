import { DISTANCE_OPERATORS, type PgVectorDistance } from './pgvector-schema.ts';

/** Reciprocal rank fusion constant, as in `reciprocalRankFusion` and Qdrant. */
export const RRF_K = 60;

/**
 * Similarity from pgvector's distance, higher is better: cosine similarity
 * `1 - cosine distance`; the inner product (pgvector's `<#>` is its
 * negation); and `1 / (1 + Euclidean distance)` for L2, in (0, 1].
 */
const SCORE_OF_DISTANCE: Readonly<Record<PgVectorDistance, (distance: string) => string>> = {
  cosine: (distance) => `(1 - ${distance})`,
  'inner-product': (distance) => `(-${distance})`,
  l2: (distance) => `(1 / (1 + ${distance}))`,
};

export interface SearchSqlOptions {
  /** `"schema"."table"`. */
  readonly table: string;
  readonly distance: PgVectorDistance;
  /** A boolean expression over `metadata` whose placeholders start at `$firstFilterParameter`. */
  readonly filterSql: string;
}

/** Placeholders of the vector search: $1 query vector (a binary float4[]), $2 limit; the filter's follow. */
export const VECTOR_SEARCH_PARAMETERS = 2;

/**
 * Nearest documents by the configured distance. The inner query orders by
 * the distance expression alone so the planner can walk the HNSW or IVFFlat
 * index; the outer one puts equal scores in id order (and, with a relaxed
 * iterative scan, restores the exact order).
 */
export function vectorSearchSql({ table, distance, filterSql }: SearchSqlOptions): string {
  const { operator } = DISTANCE_OPERATORS[distance];
  return `WITH nearest AS MATERIALIZED (
  SELECT id, text, metadata, embedding ${operator} $1::float4[]::vector AS distance
  FROM ${table}
  WHERE ${filterSql}
  ORDER BY distance
  LIMIT $2
)
SELECT id, text, metadata, ${SCORE_OF_DISTANCE[distance]('distance')}::float8 AS score
FROM nearest
ORDER BY distance, id`;
}

/**
 * Placeholders of the hybrid search: $1 query vector (a binary float4[]), $2 candidates per side,
 * $3 text search configuration, $4 query text, $5 minimum similarity of the
 * vector side (or null), $6 limit; the filter's follow.
 */
export const HYBRID_SEARCH_PARAMETERS = 6;

/**
 * Hybrid search in one statement: the vector side (nearest candidates) and the
 * full-text side (`text_search @@ query`, ranked by `ts_rank`) each keep their
 * best candidates under the same filter, and reciprocal rank fusion
 * (`sum(1 / (60 + rank))`) orders the union. The text query matches any of
 * its terms: `plainto_tsquery` normalises the text (stems, drops stop words)
 * and its AND-ed lexemes become OR-ed; lexemes never hold spaces, so `' & '`
 * only ever separates them.
 */
export function hybridSearchSql({ table, distance, filterSql }: SearchSqlOptions): string {
  const { operator } = DISTANCE_OPERATORS[distance];
  const similarity = SCORE_OF_DISTANCE[distance]('distance');
  return `WITH semantic AS MATERIALIZED (
  SELECT id, embedding ${operator} $1::float4[]::vector AS distance
  FROM ${table}
  WHERE ${filterSql}
  ORDER BY distance
  LIMIT $2
),
semantic_ranked AS (
  SELECT id, distance, row_number() OVER (ORDER BY distance, id) AS rank
  FROM semantic
  WHERE $5::float8 IS NULL OR ${similarity} >= $5::float8
),
text_query AS (
  SELECT replace(plainto_tsquery($3::regconfig, $4::text)::text, ' & ', ' | ')::tsquery AS query
),
lexical AS MATERIALIZED (
  SELECT id, ts_rank(text_search, text_query.query) AS text_rank
  FROM ${table}, text_query
  WHERE text_search @@ text_query.query AND ${filterSql}
  ORDER BY text_rank DESC, id
  LIMIT $2
),
lexical_ranked AS (
  SELECT id, row_number() OVER (ORDER BY text_rank DESC, id) AS rank
  FROM lexical
),
fused AS (
  SELECT id, sum(1.0 / (${RRF_K} + rank))::float8 AS score
  FROM (SELECT id, rank FROM semantic_ranked UNION ALL SELECT id, rank FROM lexical_ranked) AS hit
  GROUP BY id
)
SELECT document.id, document.text, document.metadata, fused.score
FROM fused JOIN ${table} AS document ON document.id = fused.id
ORDER BY fused.score DESC, document.id
LIMIT $6`;
}
