/** A column a later version added to a table, as `ALTER TABLE ... ADD COLUMN` takes it. */
export interface AddedColumn {
  /** The table's qualified, quoted name. */
  readonly table: string;
  /** The column's name, a plain identifier. */
  readonly column: string;
  /** Type, default and constraints, e.g. `boolean NOT NULL DEFAULT true`. */
  readonly definition: string;
}

/**
 * SQL that adds each column only when its table lacks it. `ALTER TABLE ... ADD COLUMN IF NOT EXISTS` takes an ACCESS
 * EXCLUSIVE lock even when the column exists: a process starting would wait for every open transaction on the table,
 * and every read and write queued behind it would wait too. The catalog is looked up first instead.
 */
export function addMissingColumnsSql(columns: readonly AddedColumn[]): string {
  const wanted = columns.map(
    ({ table, column, definition }) => `(${literal(table)}::regclass, ${literal(column)}, ${literal(definition)})`,
  );
  return `DO $schema$ DECLARE missing record; BEGIN
  FOR missing IN SELECT wanted.* FROM (VALUES
    ${wanted.join(',\n    ')}
  ) AS wanted(tbl, col, definition)
  WHERE NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = wanted.tbl AND attname = wanted.col AND NOT attisdropped)
  LOOP
    EXECUTE format('ALTER TABLE %s ADD COLUMN IF NOT EXISTS %I %s', missing.tbl, missing.col, missing.definition);
  END LOOP;
END $schema$`;
}

/**
 * SQL that creates an index only when its table has none of that name: `CREATE INDEX IF NOT EXISTS` takes a SHARE
 * lock first, waiting for the table's open writes and holding up new ones, even when the index exists.
 */
export function createMissingIndexSql({ table, index, definition }: { table: string; index: string; definition: string }): string {
  return `DO $schema$ BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM pg_index JOIN pg_class ON pg_class.oid = pg_index.indexrelid
    WHERE pg_index.indrelid = ${literal(table)}::regclass AND pg_class.relname = ${literal(index)}
  ) THEN
    CREATE INDEX IF NOT EXISTS "${index}" ON ${table} ${definition};
  END IF;
END $schema$`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
