import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte, ne, or } from '../../src/filter/filter-builder.ts';
import type { FilterExpression } from '../../src/filter/filter-expression.ts';
import { createPgVectorStore, type PgVectorStoreOptions } from '../../src/pgvector/create-pgvector-store.ts';
import { createFilteredStatements, FILTERED_STATEMENTS_PER_CONNECTION } from '../../src/pgvector/filtered-statements.ts';
import { createTopicEmbeddingModel } from '../qdrant/topic-embedding-model.ts';
import { startPGliteServer, uniqueTableName, type PgvectorTarget } from './pgvector-targets.ts';
import { createPGlitePool } from '../helpers/pglite-pool.ts';

describe('createFilteredStatements', () => {
  const connection = () => {
    const state = { discarded: false };
    return { state, identity: {}, discardAfterwards: () => void (state.discarded = true) };
  };

  it('names a text the same on every connection, up to the bound per connection; past it, unnamed and the connection discarded', () => {
    const statementOf = createFilteredStatements({ prepared: true });
    const first = connection();
    const texts = Array.from({ length: FILTERED_STATEMENTS_PER_CONNECTION + 1 }, (_, index) => `SELECT ${index}`);
    const names = texts.slice(0, -1).map((text) => statementOf(text, first).name);
    expect(new Set(names).size).toBe(FILTERED_STATEMENTS_PER_CONNECTION);
    expect(first.state.discarded).toBe(false);

    expect(statementOf(texts.at(-1)!, first)).toEqual({ text: texts.at(-1) });
    expect(first.state.discarded).toBe(true);
    // What the connection has prepared it keeps running prepared until it goes.
    expect(statementOf(texts[0], first)).toEqual({ name: names[0], text: texts[0] });

    const second = connection();
    expect(statementOf(texts.at(-1)!, second).name).toMatch(/^ai_advisors_[0-9a-f]{32}$/);
    expect(statementOf(texts[0], second).name).toBe(names[0]);
    expect(second.state.discarded).toBe(false);
  });

  it('names nothing when preparation is off', () => {
    const unprepared = connection();
    expect(createFilteredStatements({ prepared: false })('SELECT 1', unprepared)).toEqual({ text: 'SELECT 1' });
    expect(unprepared.state.discarded).toBe(false);
  });
});

describe('pgvector prepared statements (PGlite)', () => {
  let target: PgvectorTarget;
  let pool: pg.Pool;
  let connectionsOpened = 0;
  beforeAll(async () => {
    target = await startPGliteServer();
    pool = createPGlitePool(target.connectionString);
    pool.on('connect', () => connectionsOpened++);
  });
  afterAll(async () => {
    await pool.end();
    await target.close();
  });

  const documents = [
    { id: 'a-cat', text: 'A cat and a kitten', metadata: { tenant: 'a', kind: 'pet', n: 1 } },
    { id: 'a-car', text: 'The car engine', metadata: { tenant: 'a', kind: 'machine', n: 2 } },
    { id: 'b-cat', text: 'A feline cat', metadata: { tenant: 'b', kind: 'pet', n: 3 } },
    { id: 'b-dog', text: 'A dog and a puppy', metadata: { tenant: 'b', kind: 'pet', n: 4 } },
  ];

  async function filledTable(): Promise<string> {
    const tableName = uniqueTableName();
    await createPgVectorStore({ pool, tableName, dimensions: 4, embeddingModel: createTopicEmbeddingModel() }).add(documents);
    return tableName;
  }

  const storeOn = (tableName: string, options: Partial<PgVectorStoreOptions> = {}) =>
    createPgVectorStore({ pool, tableName, dimensions: 4, embeddingModel: createTopicEmbeddingModel(), ...options });

  /** The prepared statements on the (one) backend that search `tableName` with a filter, and how often each ran. */
  async function filteredStatementsOf(tableName: string) {
    const { rows } = await pool.query<{ name: string; statement: string; runs: number }>(
      `SELECT name, statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements
       WHERE statement LIKE '%' || $1 || '%' AND statement LIKE '%jsonb_path_exists%' ORDER BY prepare_time`,
      [tableName],
    );
    return rows;
  }

  it('runs one filter shape as one statement whatever its values, and another shape as another', async () => {
    const tableName = await filledTable();
    const store = storeOn(tableName);
    const ids = async (filter: FilterExpression) => (await store.search({ query: 'cat', topK: 10, filter })).map((hit) => hit.id).sort();

    expect(await ids(eq('tenant', 'a'))).toEqual(['a-car', 'a-cat']);
    expect(await ids(eq('tenant', 'b'))).toEqual(['b-cat', 'b-dog']);
    const [byTenant] = await filteredStatementsOf(tableName);
    expect(await filteredStatementsOf(tableName)).toEqual([{ name: byTenant.name, statement: byTenant.statement, runs: 2 }]);
    // The values travel as parameters: neither is in the statement.
    expect(byTenant.statement).not.toMatch(/'a'|'b'|"a"|"b"/);

    expect(await ids(and(eq('tenant', 'b'), eq('kind', 'pet')))).toEqual(['b-cat', 'b-dog']);
    expect(await ids(and(eq('tenant', 'a'), eq('kind', 'machine')))).toEqual(['a-car']);
    const statements = await filteredStatementsOf(tableName);
    expect(statements.map((row) => row.runs)).toEqual([2, 2]);
    expect(statements[1].name).not.toBe(byTenant.name);

    // The same shape over another table is another text, so another name.
    const otherTable = await filledTable();
    await storeOn(otherTable).search({ query: 'cat', filter: eq('tenant', 'a') });
    const [other] = await filteredStatementsOf(otherTable);
    expect(other.name).not.toBe(byTenant.name);
  });

  it(`keeps at most ${FILTERED_STATEMENTS_PER_CONNECTION} filtered statements on a connection, replacing a connection that needs more`, async () => {
    const tableName = await filledTable();
    const store = storeOn(tableName);
    const openedBefore = connectionsOpened;
    let most = 0;
    // An OR of `count` conditions on distinct values is a shape of its own for each count.
    for (let count = 1; count <= FILTERED_STATEMENTS_PER_CONNECTION + 8; count++) {
      const filter = or(...Array.from({ length: count }, (_, value) => eq('n', value)));
      const hits = await store.search({ vector: [1, 0, 0, 0.1], topK: 10, filter });
      expect(hits.map((hit) => hit.metadata.n).sort()).toEqual([1, 2, 3, 4].filter((n) => n < count));
      most = Math.max(most, (await filteredStatementsOf(tableName)).length);
    }
    expect(most).toBe(FILTERED_STATEMENTS_PER_CONNECTION);
    expect(connectionsOpened - openedBefore).toBe(1);
    expect((await filteredStatementsOf(tableName)).length).toBe(7);
  });

  it('returns what the unprepared statements return, for every kind of search, past the plans PostgreSQL may make generic', async () => {
    const tableName = await filledTable();
    const requests = [
      { query: 'cat' },
      { vector: [1, 0, 0, 0.1], topK: 3 },
      { query: 'cat kitten', topK: 4, minScore: 0.5 },
      { query: 'cat', filter: eq('kind', 'pet') },
      { vector: [0, 1, 0, 0.1], filter: or(eq('tenant', 'b'), gte('n', 2)) },
      { query: 'dog', filter: ne('kind', 'machine'), minScore: 0.1 },
    ];
    const variants: Partial<PgVectorStoreOptions>[] = [{}, { hybrid: true }, { requiredFilter: eq('tenant', 'b') }];
    for (const variant of variants) {
      const prepared = storeOn(tableName, variant);
      const unprepared = storeOn(tableName, { ...variant, preparedStatements: false });
      for (let round = 0; round < 7; round++) {
        for (const request of requests) expect(await prepared.search(request)).toEqual(await unprepared.search(request));
      }
    }
  });

  it('with preparedStatements: false, writes, deletes and searches prepare nothing', async () => {
    const tableName = uniqueTableName();
    const store = storeOn(tableName, { preparedStatements: false, requiredFilter: eq('tenant', 'a') });
    await store.add(documents.filter((document) => document.metadata.tenant === 'a'));
    await store.search({ query: 'cat' });
    await store.search({ query: 'cat', filter: eq('kind', 'pet') });
    await store.delete(['a-car']);
    await store.deleteByFilter(eq('kind', 'pet'));
    const { rows } = await pool.query("SELECT name FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'", [tableName]);
    expect(rows).toEqual([]);

    await storeOn(tableName, { requiredFilter: eq('tenant', 'a') }).add(documents.slice(0, 1));
    const prepared = await pool.query("SELECT name FROM pg_prepared_statements WHERE statement LIKE '%' || $1 || '%'", [tableName]);
    // The upsert, and the delete of a copy written before scopes.
    expect(prepared.rows).toHaveLength(2);
  });
});
