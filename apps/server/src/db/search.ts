import { sql, type SQL, type Table } from 'drizzle-orm'

/**
 * Free-text search shared by the dispatch list, the completion report and the activity logs
 *, written so that a trigram index (pg_trgm) serves every form of it:
 * - a term of three characters or more matches anywhere (`ILIKE '%term%'`);
 * - a term of one or two characters has no trigram of its own, so it matches where a word starts
 *   (`ab` finds "Abel", "Ana Bell" and "x.ab@…"), as large products treat very short queries: a
 *   word start is a trigram pg_trgm keeps ("  a", " ab"), where a substring match would read
 *   every row;
 * - a term with no letter or digit matches nothing: pg_trgm keeps only letters and digits, so no
 *   index can find punctuation, and such a search would read every row.
 * Pattern characters of the term (`%`, `_`, `\`, regex syntax) are always taken literally.
 */
export const MIN_SUBSTRING_TERM = 3

/** Where a word starts: the start of the text or after any ASCII punctuation or a space. */
const WORD_START = '(^|[][ !"#$%&\'()*+,./:;<=>?@\\\\^_`{|}~-])'

const HAS_WORD_CHARACTER = /[\p{L}\p{N}]/u

/** `term` with the LIKE pattern characters taken literally. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** `%term%` for ILIKE, with the pattern characters of the term taken literally. */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`
}

/** `term` as a regular expression matching itself literally. */
function escapeRegex(term: string): string {
  return term.replace(/[\\^$.*+?()[\]{}|-]/g, (c) => `\\${c}`)
}

export interface MatchOptions {
  /**
   * The text is stored lowercased (lower() at write time): compared case-sensitively with the
   * term lowercased by the same lower(), which is several times cheaper per row than ILIKE.
   */
  lowered?: boolean
  /**
   * false: written so that no index serves it, for a scan of a few rows found another way (a
   * time slice of the log): a trigram look-up costs the same whatever the slice's size.
   */
  indexed?: boolean
  /**
   * true: the pattern reaches PostgreSQL as a sub-select, which the planner does not look into,
   * so every term plans alike and a prepared statement reuses one generic plan (planning a staff
   * search's summary for each term cost as much as running it, where its generic plan, as fast to
   * run, costs nothing to reuse). Indexes still serve it (the value is known when the scan starts).
   */
  opaque?: boolean
}

/**
 * A value as a statement gets it: a typed parameter, or (opaque: MatchOptions.opaque) the same
 * inside a sub-select, which the planner does not look into.
 */
export function valueSql(value: unknown, type: string, opaque = false): SQL {
  const typed = sql`${sql.param(value)}::${sql.raw(type)}`
  return opaque ? sql`(select ${typed})::${sql.raw(type)}` : typed
}

/**
 * A pattern lowercased by PostgreSQL's lower(), as the stored text it is compared with was.
 * Behind a sub-select (opaque) it is lowered inside it, once per statement: lower() of the
 * sub-select's value is not a constant to the planner and was computed again for every row
 * compared. A plain parameter is a constant in the plans made for its value, lowered once there.
 */
function loweredSql(value: unknown, opaque = false): SQL {
  const typed = sql`${sql.param(value)}::text`
  return opaque ? sql`(select lower(${typed}))` : sql`lower(${typed})`
}

/**
 * How a term matches, apart from its value: the text of a statement kept for reuse
 * depends on this alone, the pattern being a placeholder (db/statement.ts).
 * - `none`: no letter or digit, nothing can match;
 * - `start`: one or two characters, matched where a word starts (a regular expression);
 * - `substring`: three characters or more, matched anywhere (LIKE).
 */
export type TermKind = 'none' | 'start' | 'substring'

/** A term as a match: its kind, and the pattern value its condition takes (or a placeholder for it). */
export interface TermMatch {
  kind: TermKind
  pattern: unknown
  /**
   * For a `start` term, the LIKE pattern of the term anywhere (or a placeholder for it): an
   * unindexed comparison tests it before the regular expression (matchesTermMatch).
   */
  contains?: unknown
}

/** The (trimmed, non-empty) term as a match: its kind and its pattern. */
export function termMatch(term: string): TermMatch {
  if (!HAS_WORD_CHARACTER.test(term)) return { kind: 'none', pattern: '' }
  if (term.length >= MIN_SUBSTRING_TERM) return { kind: 'substring', pattern: containsPattern(term) }
  return { kind: 'start', pattern: WORD_START + escapeRegex(term), contains: containsPattern(term) }
}

/** `text` matches the (trimmed, non-empty) term, as one condition a trigram index serves. */
export function matchesTerm(text: SQL, term: string, options: MatchOptions = {}): SQL {
  return matchesTermMatch(text, termMatch(term), options)
}

/** matchesTerm for a term given as a match (its pattern possibly a placeholder). */
export function matchesTermMatch(text: SQL, match: TermMatch, options: MatchOptions = {}): SQL {
  if (match.kind === 'none') return sql`false`
  const subject = options.indexed === false ? sql`(${text} || '')` : text
  const pattern = valueSql(match.pattern, 'text', options.opaque)
  const substring = match.kind === 'substring'
  const condition = options.lowered
    ? substring
      ? sql`${subject} like ${loweredSql(match.pattern, options.opaque)}`
      : sql`${subject} ~ ${loweredSql(match.pattern, options.opaque)}`
    : substring
      ? sql`${subject} ilike ${pattern}`
      : sql`${subject} ~* ${pattern}`
  // Compared row by row, a word start's regular expression costs about twice a LIKE of the term
  // anywhere, which already turns away most rows that do not hold the term (a word start is such
  // a match). Only unindexed: with an index, a LIKE of two characters has no trigram, and pg_trgm
  // would read the whole index for it.
  if (options.indexed !== false || match.kind !== 'start' || match.contains === undefined) return condition
  const anywhere = options.lowered
    ? sql`${subject} like ${loweredSql(match.contains, options.opaque)}`
    : sql`${subject} ilike ${valueSql(match.contains, 'text', options.opaque)}`
  return sql`(${anywhere} and ${condition})`
}

/**
 * How the completion report and the learners take a search's page. A search
 * with a known total (at most its count cap of 1,000) sorts its trigram matches; the caller
 * fences them with `offset 0`, which keeps the planner from walking a sort index and testing
 * every row against the term (a learner search with a status, sorted by time, read the whole
 * company that way). A one-letter term past the cap, which may match a third of the rows, walks the order.
 *
 * Any other search past its cap first walks the list's order, keeping the rows that match, for at
 * most this many rows; if its page is not among them, it sorts its matches. Neither way alone is
 * cheap for every term: a company's e-mail domain matches nearly every learner, so its page is
 * among the first rows walked, where sorting its matches reads nearly the whole company; a first
 * name matches a few per cent of them, all in one stretch of the name order, so an unbounded
 * walk reads most of the company for its first page, where its matches sort quickly.
 *
 * The walk is ten times the page's end in the order (offset + limit), but at most 2,000 rows or
 * twice the page's end, whichever is more: it finds the page of a term that matches a tenth of
 * the rows (half, for the deepest pages), and a sparser term gives up after a short walk. Most
 * searches are sparse, so a longer walk (√(page end × rows of the list) was tried) made the
 * report slower overall than no walk at all past the first page (bench/results/history.md).
 */
export function searchWalkRows(pageEnd: number): number {
  return Math.min(10 * pageEnd, Math.max(2 * pageEnd, 2_000))
}

/**
 * A second, longer walk for a search whose first walk (`walked` rows) found some of its page's
 * rows but not all: as long as the rate the term matched at says the page's end lies, with a
 * quarter to spare, up to ten times the first walk. Null when the first walk found none or the
 * page lies further: its matches are then sorted. A common term (two letters, a frequent name)
 * matches tens of thousands of a large dispatch's registrations, spread over the whole order:
 * its page lies a few thousand rows in, where sorting its matches reads all of them.
 */
export function furtherWalkRows(pageEnd: number, walked: number, found: number): number | null {
  if (found <= 0) return null
  const rows = Math.ceil(((pageEnd * walked) / found) * 1.25)
  return rows <= 10 * walked ? rows : null
}

/** A list's page query (searchedPage below): where its ids come from, and what they must meet. */
export interface PageSearch<P extends { rowCount: number }> {
  /** The list's table; the rows a search reads are aliased as it, so its columns still apply. */
  table: Table
  term: string
  /** The search's total when known (at most its cap), else null. */
  total: number | null
  limit: number
  offset: number
  /** The list's conditions with the term's; without it, and the term's alone (a search past the cap). */
  where: SQL
  unsearched(): SQL
  match(): SQL
  /** The list's order (its first page first). */
  order: SQL[]
  /**
   * Reads the page from `source` (the table, or one of the subqueries below) under `where`;
   * `path` names the way (a statement kept for reuse is kept per way); `walkRows` is the walk's
   * bound, the value of the `walkRows` placeholder where one is given.
   */
  read(source: SQL | Table, where: SQL | undefined, path: SearchPath, walkRows: number): Promise<P>
  /** The walk's bound past the cap; a placeholder for it in a statement kept for reuse. */
  walkRows?: unknown
  /**
   * Counts the rows of a walk's `source` (its matches among the order's first `walkRows` rows).
   * Where given, a walk that found none of a later page's rows (they were all before it) is
   * counted, so that a longer walk can be sized for it too.
   */
  countWalk?(source: SQL | Table, walkRows: number): Promise<number>
  /**
   * True when `where` without a term is known to match few rows (a rare facet): they are read
   * and sorted as a search's matches are, instead of walking the order's index past every row
   * that does not match.
   */
  fewMatches?: boolean
}

/**
 * How a page is read (searchedPage): `list`, the list's own walk (no search, or a one-letter term
 * past the cap); `matches`, the term's matches sorted (a known total); `walked`, past the cap, a
 * bounded walk of the order first, then the matches if the page is not among them.
 */
export type SearchPath = 'list' | 'matches' | 'walked'

export function searchPath(term: string, total: number | null): SearchPath {
  if (!term || (total === null && [...term].length < 2)) return 'list'
  return total !== null ? 'matches' : 'walked'
}

/**
 * The source and condition a path reads (searchedPage). `walkRows` is the walk's bound
 * (searchWalkRows of the page's end) or a placeholder for it, in a statement kept for reuse.
 */
export function searchSource(
  q: Pick<PageSearch<{ rowCount: number }>, 'table' | 'where' | 'unsearched' | 'match' | 'order'>,
  path: SearchPath,
  walkRows: unknown,
): { source: SQL | Table; where: SQL | undefined } {
  const { table } = q
  if (path === 'list') return { source: table, where: q.where }
  if (path === 'matches')
    return { source: sql`(select * from ${table} where ${q.where} offset 0) as ${table}`, where: undefined }
  const walked = sql`(select * from (select * from ${table} where ${q.unsearched()}
    order by ${sql.join(q.order, sql`, `)} limit ${walkRows}) as ${table}
    where ${q.match()}) as ${table}`
  return { source: walked, where: undefined }
}

/**
 * One page of a list, by the rules above: without a search, or for a one-letter term past the
 * cap, the list's own walk; with a known total, the term's matches sorted (fenced by `offset 0`);
 * past the cap, the walk of the order's first searchWalkRows() rows, then a longer walk where the
 * first one's matches say the page is near (furtherWalkRows), then the matches if the page is not
 * among them.
 */
export async function searchedPage<P extends { rowCount: number }>(q: PageSearch<P>): Promise<P> {
  const path = q.fewMatches && !q.term ? 'matches' : searchPath(q.term, q.total)
  const pageEnd = q.offset + q.limit
  const walked = searchWalkRows(pageEnd)
  const read = (way: SearchPath, walkRows = walked) => {
    const { source, where } = searchSource(q, way, q.walkRows ?? walkRows)
    return q.read(source, where, way, walkRows)
  }
  let page = await read(path)
  if (path !== 'walked' || page.rowCount === q.limit) return page
  // A page the walk left short ends where the walk's matches end: offset + rowCount of them. A
  // rate read off a few dozen matches may fall a little short: one more walk from the longer one's.
  let last = walked
  const foundBy = async (walkRows: number, rowCount: number) => {
    if (rowCount > 0) return q.offset + rowCount
    if (q.offset === 0 || !q.countWalk) return 0
    return q.countWalk(searchSource(q, 'walked', q.walkRows ?? walkRows).source, walkRows)
  }
  for (let tries = 0; tries < 2; tries += 1) {
    const further = furtherWalkRows(pageEnd, last, await foundBy(last, page.rowCount))
    if (further === null || further > 10 * walked) break
    page = await read('walked', further)
    if (page.rowCount === q.limit) return page
    last = further
  }
  return read('matches')
}

/**
 * Where a list's page is read from (the dispatch list, the report and the learners):
 * a page in the second half of a known total is walked from the other end, in the opposite
 * order, `limit` and `offset` counted from there (the caller puts the rows back in order).
 */
export function nearerEnd(total: number | null, limit: number, offset: number) {
  if (total === null || offset <= total / 2) return { fromEnd: false, limit, offset }
  return {
    fromEnd: true,
    limit: Math.max(0, Math.min(limit, total - offset)),
    offset: Math.max(0, total - offset - limit),
  }
}
