// The text matcher's FTS5 queries in PostgreSQL's words (decision 098). The search builds FTS5 query text (ftsTerms:
// quoted words, the last maybe a prefix `"w"*`, joined by spaces for AND; some-words adds `title : "w"`, AND, OR and
// parentheses). On PostgreSQL each word becomes a tsquery on the products' English text search document, the one its
// GIN index is built on (prisma/postgresql/extras.sql), or on the title alone after `title :`.

/** The products' document, exactly as the index "Product_search_idx" computes it, so that the index is used. */
const DOCUMENT = `"product_search_document"("title", "description", "niches", "tags")`;
const TITLE = `to_tsvector('english'::regconfig, "title")`;

type Token = { kind: "(" | ")" | "AND" | "OR" | "NOT" | "title" } | { kind: "word"; word: string; prefix: boolean };

function tokens(fts: string): Token[] {
  const out: Token[] = [];
  const pattern = /\s*(?:(\()|(\))|\b(AND|OR|NOT)\b|(title)\s*:|"([^"]*)"(\*)?)/gy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < fts.length && (match = pattern.exec(fts)) !== null) {
    at = pattern.lastIndex;
    if (match[1]) out.push({ kind: "(" });
    else if (match[2]) out.push({ kind: ")" });
    else if (match[3]) out.push({ kind: match[3] as "AND" | "OR" | "NOT" });
    else if (match[4]) out.push({ kind: "title" });
    else if (match[5] !== undefined) out.push({ kind: "word", word: match[5], prefix: match[6] === "*" });
    if (fts.slice(at).trim() === "") break;
  }
  if (fts.slice(at).trim() !== "") throw new Error(`not a query the search builds: ${fts}`);
  return out;
}

/** A tsquery for one word of the search (letters and digits only, ftsTerms), a prefix as `:*`. */
const tsquery = (word: string, prefix: boolean) => `${word.replace(/[^\p{L}\p{N}]/gu, "")}${prefix ? ":*" : ""}`;

/** A WHERE condition (with its parameters) selecting the products an FTS5 query of the search matches. */
export function postgresTextCondition(fts: string): { sql: string; args: string[] } {
  const args: string[] = [];
  let sql = "";
  let title = false;
  let needsJoin = false;
  for (const token of tokens(fts)) {
    if (token.kind === "word") {
      if (needsJoin) sql += " AND ";
      sql += `(${title ? TITLE : DOCUMENT} @@ to_tsquery('english'::regconfig, ?))`;
      args.push(tsquery(token.word, token.prefix));
      title = false;
      needsJoin = true;
    } else if (token.kind === "title") {
      if (needsJoin) sql += " AND ";
      title = true;
      needsJoin = false;
    } else if (token.kind === "(") {
      if (needsJoin) sql += " AND ";
      sql += "(";
      needsJoin = false;
    } else if (token.kind === ")") {
      sql += ")";
      needsJoin = true;
    } else {
      sql += ` ${token.kind === "NOT" ? "AND NOT" : token.kind} `;
      needsJoin = false;
    }
  }
  return { sql: sql || "FALSE", args };
}

/** Every matching product id, ascending, as one comma-separated text (as FTS5's group_concat(rowid) gives them). */
export function postgresMatchSql(fts: string): { sql: string; args: string[] } {
  const where = postgresTextCondition(fts);
  return { sql: `SELECT string_agg("id"::text, ',' ORDER BY "id") FROM "Product" WHERE ${where.sql}`, args: where.args };
}

/** The best `limit` matches, best first: ts_rank of every word over the document (BM25's role in FTS5). */
export function postgresRankedSql(fts: string, limit: number): { sql: string; args: (string | number)[] } {
  const where = postgresTextCondition(fts);
  const words = tokens(fts).filter((t): t is Extract<Token, { kind: "word" }> => t.kind === "word");
  const rank = words.length > 0 ? words.map(() => `ts_rank(${DOCUMENT}, to_tsquery('english'::regconfig, ?))`).join(" + ") : "0";
  return {
    sql: `SELECT "id" FROM "Product" WHERE ${where.sql} ORDER BY ${rank} DESC, "id" LIMIT ?`,
    args: [...where.args, ...words.map((w) => tsquery(w.word, w.prefix)), limit],
  };
}
