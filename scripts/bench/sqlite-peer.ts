// The peer a competent engineer would build instead of a custom index: node:sqlite with an FTS5
// trigram table over the folded review text (substring matches of 3 characters or more; shorter
// needles fall back to instr() over every row), B-tree indexes on rating and date, and link tables
// for technicians and services. It answers `GET /api/reviews/search` with the same parameters,
// validation and bytes as the service, from the records of a built reviews.json.
//   node scripts/bench/sqlite-peer.ts <dist dir> <port>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { ValidationError } from '../../src/core/errors.ts';
import { parseSearchQuery, type SearchParams } from '../../src/core/search.ts';
import { foldText } from '../../src/core/text.ts';

interface Dataset {
  business: {
    technicians: { id: string; name: string; aliases?: string[] }[];
    services: { id: string }[];
  };
  reviews: {
    rating: number;
    date: string;
    title: string | null;
    text: string;
    technicians: string[];
    service_ids: string[];
  }[];
}

const [distDir = 'dist', port = '0'] = process.argv.slice(2);
const dataset = JSON.parse(
  readFileSync(path.join(distDir, 'client', 'reviews.json'), 'utf8'),
) as Dataset;

const db = new DatabaseSync(':memory:');
db.exec(`
  CREATE TABLE reviews (n INTEGER PRIMARY KEY, rating INTEGER, date TEXT, folded TEXT, record TEXT);
  CREATE TABLE review_technicians (technician INTEGER, n INTEGER, PRIMARY KEY (technician, n)) WITHOUT ROWID;
  CREATE TABLE review_services (service TEXT, n INTEGER, PRIMARY KEY (service, n)) WITHOUT ROWID;
  CREATE VIRTUAL TABLE texts USING fts5(body, tokenize = 'trigram');
`);
const technicianByName = new Map<string, number>();
dataset.business.technicians.forEach((technician, index) => {
  for (const name of [technician.id, technician.name, ...(technician.aliases ?? [])])
    technicianByName.set(foldText(name.trim()), index);
});
const technicianIndex = new Map(dataset.business.technicians.map((t, index) => [t.name, index]));
const serviceIds = new Set(dataset.business.services.map((service) => service.id));
const insertReview = db.prepare('INSERT INTO reviews VALUES (?, ?, ?, ?, ?)');
const insertText = db.prepare('INSERT INTO texts (rowid, body) VALUES (?, ?)');
const insertTechnician = db.prepare('INSERT OR IGNORE INTO review_technicians VALUES (?, ?)');
const insertService = db.prepare('INSERT OR IGNORE INTO review_services VALUES (?, ?)');
db.exec('BEGIN');
// reviews.json is newest first: n is the answer order.
dataset.reviews.forEach((review, n) => {
  const folded = foldText(review.title ? `${review.title}\n${review.text}` : review.text);
  insertReview.run(n, review.rating, review.date, folded, JSON.stringify(review));
  insertText.run(n, folded);
  for (const name of review.technicians) {
    const technician = technicianIndex.get(name);
    if (technician !== undefined) insertTechnician.run(technician, n);
  }
  for (const service of review.service_ids) insertService.run(service, n);
});
db.exec('COMMIT');
db.exec(
  'CREATE INDEX reviews_rating ON reviews (rating, n); CREATE INDEX reviews_date ON reviews (date)',
);

const statements = new Map<string, { count: StatementSync; rows: StatementSync }>();

function answer(params: SearchParams): string {
  const where: string[] = [];
  const values: (string | number)[] = [];
  const add = (sql: string, value: string | number) => {
    where.push(sql);
    values.push(value);
  };
  if (params.rating !== undefined) add('rating = ?', params.rating);
  if (params.min_rating !== undefined) add('rating >= ?', params.min_rating);
  if (params.since !== undefined) add('date >= ?', params.since);
  if (params.until !== undefined) add('date <= ?', params.until);
  if (params.mentions_technician !== undefined) {
    const technician = technicianByName.get(foldText(params.mentions_technician.trim())) ?? -1;
    where.push('n IN (SELECT n FROM review_technicians WHERE technician = ?)');
    values.push(technician);
  }
  if (params.mentions_service !== undefined) {
    if (!serviceIds.has(params.mentions_service))
      throw new ValidationError('invalid search parameters', [
        { path: ['mentions_service'], code: 'invalid_value', message: 'unknown service id' },
      ]);
    where.push('n IN (SELECT n FROM review_services WHERE service = ?)');
    values.push(params.mentions_service);
  }
  if (params.query !== undefined) {
    const needle = foldText(params.query);
    if ([...needle].length >= 3) {
      where.push('n IN (SELECT rowid FROM texts WHERE texts MATCH ?)');
      values.push(`"${needle.replaceAll('"', '""')}"`);
    } else {
      where.push('instr(folded, ?) > 0');
      values.push(needle);
    }
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  let prepared = statements.get(clause);
  if (!prepared) {
    prepared = {
      count: db.prepare(`SELECT count(*) AS total FROM reviews ${clause}`),
      rows: db.prepare(`SELECT record FROM reviews ${clause} ORDER BY n LIMIT ?`),
    };
    statements.set(clause, prepared);
  }
  const { total } = prepared.count.get(...values) as { total: number };
  const rows = prepared.rows.all(...values, params.limit) as { record: string }[];
  return `{"total":${total},"count":${rows.length},"limit":${params.limit},"reviews":[${rows.map((row) => row.record).join(',')}]}`;
}

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://peer');
  if (url.pathname !== '/api/reviews/search') {
    response.writeHead(404).end();
    return;
  }
  try {
    const body = answer(parseSearchQuery(url.searchParams));
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } catch (error) {
    const status = error instanceof ValidationError ? 400 : 500;
    response
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: String(error) }));
  }
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : port}`);
});
