// Validators for the feeds, used by the feed tests: JSON Feed 1.1 against its JSON Schema (ajv),
// Atom against RFC 4287 Appendix B (xmllint --relaxng), plus the Atom rules the grammar leaves out.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DOMParser } from '@xmldom/xmldom';
import type { Document, Element } from '@xmldom/xmldom';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const execFileAsync = promisify(execFile);

export const JSON_FEED_SCHEMA_PATH = new URL(
  '../fixtures/jsonfeed-1.1.schema.json',
  import.meta.url,
);
export const ATOM_RNG_PATH = new URL('../fixtures/atom.rng', import.meta.url);
export const ATOM_NS = 'http://www.w3.org/2005/Atom';

// ajv-formats is CommonJS: under NodeNext the default import is `module.exports`, whose
// `default` is the plugin both at run time and in its typings.
const addFormats = addFormatsModule.default;
// strictRequired off: the schema's `anyOf: [{required: [content_html]}, {required: [content_text]}]`
// is correct JSON Schema that ajv's strict mode flags only because the branches declare no properties.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validateJsonFeedSchema = ajv.compile(
  JSON.parse(readFileSync(JSON_FEED_SCHEMA_PATH, 'utf8')) as object,
);

/** Schema errors of a JSON Feed document, as `path message` lines; empty when valid. */
export function validateJsonFeed(doc: unknown): string[] {
  if (validateJsonFeedSchema(doc)) return [];
  return (validateJsonFeedSchema.errors ?? []).map((error) => {
    const params = JSON.stringify(error.params);
    return `${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${params}`;
  });
}

/** RELAX NG errors of an Atom document from xmllint; empty when valid. Throws when xmllint is missing. */
export async function validateAtom(xml: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'atom-validate-'));
  const file = join(dir, 'feed.xml');
  try {
    await writeFile(file, xml, 'utf8');
    try {
      await execFileAsync('xmllint', ['--noout', '--relaxng', fileURLToPath(ATOM_RNG_PATH), file]);
      return [];
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { stderr?: string; stdout?: string };
      if (failure.code === 'ENOENT') {
        throw new Error(
          'xmllint is not installed: install it with `apt-get install -y libxml2-utils`.',
          {
            cause: error,
          },
        );
      }
      const lines = `${failure.stderr ?? ''}${failure.stdout ?? ''}`
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.endsWith(' validates'));
      return lines.length > 0 ? lines : [`xmllint failed: ${failure.message}`];
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Parses XML, throwing on any well-formedness error or warning. */
export function parseXml(xml: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new Error(`XML ${level}: ${message}`);
    },
  });
  return parser.parseFromString(xml, 'application/xml');
}

// RFC 4287 §3.3 (RFC 3339 date-time): uppercase "T" and "Z", a zone always.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

function isRfc3339(value: string): boolean {
  const match = RFC3339.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match
    .slice(1)
    .map((part) => (part === undefined ? 0 : Number(part))) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate())
    return false;
  return hour <= 23 && minute <= 59 && second <= 60 && zoneHour <= 23 && zoneMinute <= 59;
}

// RFC 3987: an absolute IRI starts with a scheme; no white space anywhere.
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;

function atomElements(root: Document | Element, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(ATOM_NS, localName));
}

function childAtomElements(parent: Element, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).namespaceURI === ATOM_NS &&
      (node as Element).localName === localName,
  );
}

/**
 * What RFC 4287 says and its grammar does not check (the grammar takes any text as an id and
 * does not look at link relations): RFC 3339 dates with a zone, absolute and unique ids, and
 * exactly one `self` link equal to `expectedSelf` and one `hub` link on the feed.
 */
export function atomChecksBeyondGrammar(xml: string, expectedSelf: string): string[] {
  let doc: Document;
  try {
    doc = parseXml(xml);
  } catch (error) {
    return [`not well-formed: ${(error as Error).message}`];
  }
  const problems: string[] = [];
  const feed = doc.documentElement;
  if (!feed || feed.namespaceURI !== ATOM_NS || feed.localName !== 'feed') {
    return ['the root element is not atom:feed'];
  }

  for (const name of ['updated', 'published']) {
    for (const element of atomElements(doc, name)) {
      const value = element.textContent ?? '';
      if (!isRfc3339(value))
        problems.push(`${name} "${value}" is not an RFC 3339 date-time with a zone`);
    }
  }

  const seen = new Set<string>();
  for (const element of atomElements(doc, 'id')) {
    const value = element.textContent ?? '';
    if (!ABSOLUTE_IRI.test(value)) problems.push(`id "${value}" is not an absolute IRI`);
    if (seen.has(value)) problems.push(`id "${value}" is not unique`);
    seen.add(value);
  }

  const feedLinks = childAtomElements(feed, 'link');
  const selfLinks = feedLinks.filter((link) => link.getAttribute('rel') === 'self');
  if (selfLinks.length !== 1)
    problems.push(`feed has ${selfLinks.length} link rel="self", expected 1`);
  for (const link of selfLinks) {
    const href = link.getAttribute('href');
    if (href !== expectedSelf)
      problems.push(`link rel="self" href "${href}" is not "${expectedSelf}"`);
  }
  const hubLinks = feedLinks.filter((link) => link.getAttribute('rel') === 'hub');
  if (hubLinks.length !== 1)
    problems.push(`feed has ${hubLinks.length} link rel="hub", expected 1`);

  return problems;
}
