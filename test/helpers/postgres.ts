import pg from "pg";

/** Connects to `url` with `pg` and answers `current_database()`: which database the URL reaches. */
export async function currentDatabase(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String((await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db);
  } finally {
    await client.end();
  }
}
