// Unit tests of the JSON Feed 1.1 and Atom builders: validity against the JSON Feed schema and
// RFC 4287's grammar, ids, links, the 50-item cap, escaping of hard text and determinism.
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Element } from '@xmldom/xmldom';
import {
  ATOM_NS,
  atomChecksBeyondGrammar,
  parseXml,
  validateAtom,
  validateJsonFeed,
} from '../../test/support/validate-feeds.ts';
import {
  FEED_SIZE,
  JSON_FEED_VERSION,
  buildJsonFeed,
  renderAtomFeed,
  renderJsonFeed,
  tagAuthority,
} from './feeds.ts';
import type { FeedContext } from './feeds.ts';
import type { Review } from './review.ts';
import { makeBusiness, makeDetailedReview } from '../../test/support/builders.ts';

const SITE_URL = 'https://reviews.summit-roofing.example';
/** RFC 4151's taggingEntity with a DNS name: labels of ASCII letters and digits, inner hyphens. */
const TAG_AUTHORITY =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*,\d{4}$/;

/** YYYY-MM-DD `daysBefore` days before 2024-12-31 (fixed, so no clock is involved). */
function dayBefore(daysBefore: number): string {
  return new Date(Date.UTC(2024, 11, 31 - daysBefore)).toISOString().slice(0, 10);
}

/** `count` reviews, newest first, with ids r-000 (newest) … */
function makeReviews(count: number): Review[] {
  return Array.from({ length: count }, (_, index) =>
    makeDetailedReview({
      id: `r-${String(index).padStart(3, '0')}`,
      date: dayBefore(index),
      rating: (index % 5) + 1,
    }),
  );
}

function context(overrides: Partial<FeedContext> = {}): FeedContext {
  return {
    siteUrl: SITE_URL,
    business: makeBusiness(),
    reviews: [makeDetailedReview()],
    ...overrides,
  };
}

interface JsonFeedItem {
  id: string;
  url: string;
  title: string;
  content_text: string;
  date_published: string;
  date_modified: string;
  authors: { name: string }[];
  tags: string[];
  language: string;
  _review: Record<string, unknown>;
}

interface JsonFeedDoc {
  version: string;
  feed_url: string;
  home_page_url: string;
  hubs: { type: string; url: string }[];
  items: JsonFeedItem[];
}

function jsonFeed(ctx: FeedContext): JsonFeedDoc {
  return JSON.parse(renderJsonFeed(ctx)) as JsonFeedDoc;
}

function atomEntries(xml: string): Element[] {
  return Array.from(parseXml(xml).getElementsByTagNameNS(ATOM_NS, 'entry'));
}

function child(parent: Element, localName: string): Element {
  const found = Array.from(parent.childNodes).find(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).namespaceURI === ATOM_NS &&
      (node as Element).localName === localName,
  );
  if (!found) throw new Error(`no atom:${localName} in atom:${parent.localName}`);
  return found;
}

function children(parent: Element, localName: string): Element[] {
  return Array.from(parent.childNodes).filter(
    (node): node is Element =>
      node.nodeType === 1 &&
      (node as Element).namespaceURI === ATOM_NS &&
      (node as Element).localName === localName,
  );
}

function feedElement(xml: string): Element {
  const root = parseXml(xml).documentElement;
  if (!root) throw new Error('no root element');
  return root;
}

const HTML_ENTITIES: Record<string, string> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&amp;': '&',
};

/** Decodes escaped text as the Atom HTML constructs carry it: one pass, so "&amp;lt;" stays "&lt;". */
function decodeHtmlText(html: string): string {
  expect(html).not.toMatch(/<|>/);
  return html.replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => HTML_ENTITIES[entity] ?? entity);
}

/** Decodes `<p>…</p><p>…<br>…</p>` (the HTML content of an entry) back to plain text. */
function decodeHtmlParagraphs(html: string): string {
  expect(html.startsWith('<p>') && html.endsWith('</p>')).toBe(true);
  return html
    .slice('<p>'.length, -'</p>'.length)
    .split('</p><p>')
    .map((paragraph) => paragraph.split('<br>').map(decodeHtmlText).join('\n'))
    .join('\n\n');
}

// XML 1.0 §2.2 Char, as code points.
function hasXmlForbiddenChar(value: string): boolean {
  for (const char of value) {
    const cp = char.codePointAt(0) ?? 0;
    const allowed =
      cp === 0x9 ||
      cp === 0xa ||
      cp === 0xd ||
      (cp >= 0x20 && cp <= 0xd7ff) ||
      (cp >= 0xe000 && cp <= 0xfffd) ||
      (cp >= 0x10000 && cp <= 0x10ffff);
    if (!allowed) return true;
  }
  return false;
}

const HARD_TEXT =
  'Bell\u0007 and vertical tab\u000B here. </script><script>alert(1)</script> <b>bold</b> ' +
  'Tom & Jerry &amp; co, "double" and \'single\' quotes, CDATA end ]]> and ]]]]>, ' +
  'emoji 🏠👍🏽, a clef 𝄞, a lone \uD800 surrogate.\n\nSecond paragraph\nwith a line break.';
// What XML can carry of HARD_TEXT: U+0007, U+000B and the lone surrogate removed, nothing else.
const HARD_TEXT_IN_XML =
  'Bell and vertical tab here. </script><script>alert(1)</script> <b>bold</b> ' +
  'Tom & Jerry &amp; co, "double" and \'single\' quotes, CDATA end ]]> and ]]]]>, ' +
  'emoji 🏠👍🏽, a clef 𝄞, a lone  surrogate.\n\nSecond paragraph\nwith a line break.';

afterEach(() => {
  vi.useRealTimers();
});

describe('JSON Feed 1.1', () => {
  test('json feed is valid against the JSON Feed 1.1 schema and declares version 1.1', () => {
    const doc = jsonFeed(
      context({
        reviews: [...makeReviews(3), makeDetailedReview({ id: 'hard', text: HARD_TEXT })],
      }),
    );
    expect(validateJsonFeed(doc)).toEqual([]);
    expect(doc.version).toBe(JSON_FEED_VERSION);
    expect(doc.version).toBe('https://jsonfeed.org/version/1.1');
  });

  test('the schema check rejects unknown keys and items without content', () => {
    const doc = buildJsonFeed(context());
    expect(validateJsonFeed({ ...doc, titel: 'typo' })).not.toEqual([]);
    const items = doc['items'] as Record<string, unknown>[];
    const withoutContent = { ...items[0] };
    delete withoutContent['content_text'];
    expect(validateJsonFeed({ ...doc, items: [withoutContent] })).not.toEqual([]);
    expect(
      validateJsonFeed({ ...doc, items: [{ ...items[0], date_published: '2024-05-01' }] }),
    ).not.toEqual([]);
  });

  test('renderJsonFeed is the JSON of buildJsonFeed', () => {
    const ctx = context({ reviews: makeReviews(4) });
    expect(JSON.parse(renderJsonFeed(ctx))).toEqual(buildJsonFeed(ctx));
  });

  test('feed_url is {SITE_URL}/api/feed.json, home_page_url the site, and the hub is WebSub at {SITE_URL}/api/websub/hub', () => {
    const doc = jsonFeed(context({ siteUrl: `${SITE_URL}/` }));
    expect(doc.feed_url).toBe(`${SITE_URL}/api/feed.json`);
    expect(doc.home_page_url).toBe(`${SITE_URL}/`);
    expect(doc.hubs).toEqual([{ type: 'WebSub', url: `${SITE_URL}/api/websub/hub` }]);
  });

  test('an item carries url, title, content_text, RFC 3339 dates, authors, service names as tags and language', () => {
    const review = makeDetailedReview({
      id: 'r-042',
      date: '2024-03-09',
      updated: '2024-04-10',
      service_ids: ['gutters', 'roof-repair'],
      language: 'es',
    });
    const [item] = jsonFeed(context({ reviews: [review] })).items;
    expect(item).toMatchObject({
      url: `${SITE_URL}/reviews/r-042/`,
      title: 'Fixed the leak in a day',
      content_text: review.text,
      date_published: '2024-03-09T00:00:00-07:00',
      date_modified: '2024-04-10T00:00:00-06:00',
      authors: [{ name: 'Pat Doe' }],
      tags: ['Gutters & downspouts', 'Roof repair'],
      language: 'es',
    });
  });

  test('an item without a title gets "<rating>-star review by <author>"', () => {
    const [item] = jsonFeed(
      context({ reviews: [makeDetailedReview({ title: null, rating: 4 })] }),
    ).items;
    expect(item?.title).toBe('4-star review by Pat Doe');
  });

  test('the _review extension carries rating, technicians, service_ids and verification', () => {
    const review = makeDetailedReview({
      rating: 3,
      technicians: ['Ana López', 'Sam Lee'],
      service_ids: ['gutters'],
      verification: { method: 'invitation_link', verified_on: null },
    });
    const [item] = jsonFeed(context({ reviews: [review] })).items;
    expect(item?._review).toMatchObject({
      rating: 3,
      technicians: ['Ana López', 'Sam Lee'],
      service_ids: ['gutters'],
      verification: { method: 'invitation_link', verified_on: null },
    });
  });

  test('json feed keeps control characters, escaped as \\u sequences, and all hard text unchanged', () => {
    const ctx = context({
      reviews: [
        makeDetailedReview({
          text: HARD_TEXT,
          author: { name: 'Tom &amp; "T" <x>', location: null },
        }),
      ],
    });
    const raw = renderJsonFeed(ctx);
    expect(raw).toContain('\\u0007');
    expect(raw).toContain('\\u000b');
    expect(raw).toContain('\\ud800');
    expect(Array.from(raw).some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
    const [item] = (JSON.parse(raw) as JsonFeedDoc).items;
    expect(item?.content_text).toBe(HARD_TEXT);
    expect(item?.authors).toEqual([{ name: 'Tom &amp; "T" <x>' }]);
  });
});

describe('Atom', () => {
  test('atom is valid against the RFC 4287 grammar and the checks the grammar misses', async () => {
    const xml = renderAtomFeed(
      context({
        reviews: [...makeReviews(3), makeDetailedReview({ id: 'hard', text: HARD_TEXT })],
      }),
    );
    expect(await validateAtom(xml)).toEqual([]);
    expect(atomChecksBeyondGrammar(xml, `${SITE_URL}/feed.xml`)).toEqual([]);
  });

  test('the atom validators reject a feed without an id, a bad date, duplicate ids and a wrong self link', async () => {
    const xml = renderAtomFeed(context({ reviews: makeReviews(2) }));
    const withoutFeedId = xml.replace(/<id>tag:[^<]*:reviews<\/id>/, '');
    expect(withoutFeedId).not.toBe(xml);
    expect(await validateAtom(withoutFeedId)).not.toEqual([]);

    const badDate = xml.replace(/<published>([^<]*)T00:00:00-07:00</, '<published>$1T00:00:00<');
    expect(atomChecksBeyondGrammar(badDate, `${SITE_URL}/feed.xml`)).toEqual([
      expect.stringContaining('is not an RFC 3339 date-time with a zone'),
    ]);
    const duplicateIds = xml.replace(':review:r-001<', ':review:r-000<');
    expect(atomChecksBeyondGrammar(duplicateIds, `${SITE_URL}/feed.xml`)).toEqual([
      expect.stringContaining('is not unique'),
    ]);
    expect(atomChecksBeyondGrammar(xml, 'https://elsewhere.example/feed.xml')).toEqual([
      expect.stringContaining('link rel="self"'),
    ]);
  });

  test('atom has one self link to {SITE_URL}/feed.xml and one hub link to {SITE_URL}/api/websub/hub', () => {
    const feed = feedElement(renderAtomFeed(context({ siteUrl: `${SITE_URL}/` })));
    const links = children(feed, 'link').map((link) => [
      link.getAttribute('rel'),
      link.getAttribute('href'),
    ]);
    expect(links.filter(([rel]) => rel === 'self')).toEqual([['self', `${SITE_URL}/feed.xml`]]);
    expect(links.filter(([rel]) => rel === 'hub')).toEqual([['hub', `${SITE_URL}/api/websub/hub`]]);
  });

  test('atom entries link to the review page and date updated/published from the review', () => {
    const review = makeDetailedReview({ id: 'r-042', date: '2024-03-09', updated: '2024-04-10' });
    const [entry] = atomEntries(renderAtomFeed(context({ reviews: [review] })));
    if (!entry) throw new Error('no entry');
    expect(child(entry, 'link').getAttribute('href')).toBe(`${SITE_URL}/reviews/r-042/`);
    // The start of each day in the business's zone (America/Denver), with that day's offset.
    expect(child(entry, 'published').textContent).toBe('2024-03-09T00:00:00-07:00');
    expect(child(entry, 'updated').textContent).toBe('2024-04-10T00:00:00-06:00');
  });

  test("both feeds date a review at the start of its day in the business's time zone", () => {
    const review = makeDetailedReview({ date: '2024-07-15', updated: '2024-11-15' });
    for (const [timezone, published, updated] of [
      ['America/Denver', '2024-07-15T00:00:00-06:00', '2024-11-15T00:00:00-07:00'],
      ['Asia/Tokyo', '2024-07-15T00:00:00+09:00', '2024-11-15T00:00:00+09:00'],
      ['UTC', '2024-07-15T00:00:00Z', '2024-11-15T00:00:00Z'],
    ] as const) {
      const ctx = context({ business: makeBusiness({ timezone }), reviews: [review] });
      const [item] = jsonFeed(ctx).items;
      expect([item?.date_published, item?.date_modified]).toEqual([published, updated]);
      const xml = renderAtomFeed(ctx);
      const [entry] = atomEntries(xml);
      if (!entry) throw new Error('no entry');
      expect(child(entry, 'published').textContent).toBe(published);
      expect(child(entry, 'updated').textContent).toBe(updated);
      expect(child(feedElement(xml), 'updated').textContent).toBe(updated);
      // A reader in the business's zone shows the day the review was written on.
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: timezone });
      expect(day.format(Date.parse(published))).toBe('2024-07-15');
      expect(day.format(Date.parse(updated))).toBe('2024-11-15');
    }
  });

  test('atom feed updated is the latest review update, not the time of rendering', () => {
    const reviews = [
      makeDetailedReview({ id: 'a', date: '2024-06-01' }),
      makeDetailedReview({ id: 'b', date: '2024-05-01', updated: '2024-07-15' }),
    ];
    const feed = feedElement(renderAtomFeed(context({ reviews })));
    expect(child(feed, 'updated').textContent).toBe('2024-07-15T00:00:00-06:00');
  });

  test('atom strips characters XML forbids but keeps emoji and other non-BMP characters', async () => {
    const xml = renderAtomFeed(
      context({
        reviews: [
          makeDetailedReview({
            text: HARD_TEXT,
            title: 'Bell\u0007 🏠 title',
            author: { name: 'Pat\u000B 𝄞', location: null },
          }),
        ],
      }),
    );
    expect(hasXmlForbiddenChar(xml)).toBe(false);
    expect(xml).toContain('🏠👍🏽');
    expect(xml).toContain('𝄞');
    expect(await validateAtom(xml)).toEqual([]);
    const [entry] = atomEntries(xml);
    if (!entry) throw new Error('no entry');
    expect(child(entry, 'title').textContent).toBe('Bell 🏠 title');
    expect(child(child(entry, 'author'), 'name').textContent).toBe('Pat 𝄞');
  });

  test('atom escapes markup-like review text so that it decodes back to the original text', async () => {
    const title = '</script> <b>5 stars</b> & "more" \'quotes\' ]]> 👍';
    const xml = renderAtomFeed(
      context({ reviews: [makeDetailedReview({ text: HARD_TEXT, title })] }),
    );
    expect(await validateAtom(xml)).toEqual([]);
    const [entry] = atomEntries(xml);
    if (!entry) throw new Error('no entry');

    const content = child(entry, 'content');
    expect(content.getAttribute('type')).toBe('html');
    // The markup in the review is text, not elements, once the XML is parsed.
    expect(Array.from(content.childNodes).some((node) => node.nodeType === 1)).toBe(false);
    // The review, then the rating line as a paragraph of its own.
    const decoded = decodeHtmlParagraphs(content.textContent ?? '');
    expect(decoded.startsWith(`${HARD_TEXT_IN_XML}\n\n`)).toBe(true);
    expect(decoded.slice(HARD_TEXT_IN_XML.length + 2)).toMatch(/^Rated \d of 5 by /);

    // Titles are plain text: what the parser reads is the title itself, with no entities left.
    const titleElement = child(entry, 'title');
    expect(titleElement.getAttribute('type')).toBe('text');
    expect(titleElement.textContent).toBe(title);
    // The summary starts with the review itself, so readers that show summaries show the review.
    const summary = child(entry, 'summary');
    expect(summary.getAttribute('type')).toBe('text');
    expect(summary.textContent?.startsWith(HARD_TEXT_IN_XML)).toBe(true);
  });

  test('atom plain-text title, subtitle and author names decode to the original strings', () => {
    const business = makeBusiness({ name: 'O\'Brien & Sons <Roofing> &amp; "Co"' });
    const xml = renderAtomFeed(
      context({
        business,
        reviews: [makeDetailedReview({ author: { name: 'Tom &amp; Jerry <x>', location: null } })],
      }),
    );
    const feed = feedElement(xml);
    const titleElement = child(feed, 'title');
    expect(titleElement.getAttribute('type') ?? 'text').toBe('text');
    expect(titleElement.textContent).toBe(
      'O\'Brien & Sons <Roofing> &amp; "Co": verified customer reviews',
    );
    expect(child(feed, 'subtitle').textContent).toBe(
      `The ${FEED_SIZE} newest verified customer reviews of O'Brien & Sons <Roofing> &amp; "Co".`,
    );
    expect(child(child(feed, 'author'), 'name').textContent).toBe(
      'O\'Brien & Sons <Roofing> &amp; "Co"',
    );
    const [entry] = atomEntries(xml);
    if (!entry) throw new Error('no entry');
    expect(child(child(entry, 'author'), 'name').textContent).toBe('Tom &amp; Jerry <x>');
  });

  test('atom categories have the service id as term and the service name as label', async () => {
    const business = makeBusiness({
      services: [
        { id: 'gutters', name: 'Gutters & "downspouts"' },
        { id: 'odd', name: 'Repairs <urgent>' },
      ],
    });
    const xml = renderAtomFeed(
      context({ business, reviews: [makeDetailedReview({ service_ids: ['gutters', 'odd'] })] }),
    );
    expect(await validateAtom(xml)).toEqual([]);
    const [entry] = atomEntries(xml);
    if (!entry) throw new Error('no entry');
    const categories = children(entry, 'category').map((category) => [
      category.getAttribute('term'),
      category.getAttribute('label'),
    ]);
    // Every label is escaped as an attribute value, so markup-like names survive intact.
    expect(categories).toEqual([
      ['gutters', 'Gutters & "downspouts"'],
      ['odd', 'Repairs <urgent>'],
    ]);
  });
});

describe('both feeds', () => {
  test('both feeds hold the 50 newest reviews, newest first', () => {
    const reviews = makeReviews(60);
    const expectedIds = reviews
      .slice(0, FEED_SIZE)
      .map((review) => `tag:summit-roofing.example,1998:review:${review.id}`);
    expect(FEED_SIZE).toBe(50);

    const items = jsonFeed(context({ reviews })).items;
    expect(items.map((item) => item.id)).toEqual(expectedIds);
    expect(items[0]?.date_published).toBe('2024-12-31T00:00:00-07:00');

    const entries = atomEntries(renderAtomFeed(context({ reviews })));
    expect(entries.map((entry) => child(entry, 'id').textContent)).toEqual(expectedIds);
  });

  test('item ids are tag: URIs from the business domain and founding year', () => {
    const [item] = jsonFeed(context()).items;
    expect(item?.id).toBe('tag:summit-roofing.example,1998:review:r-001');
    // RFC 4151: "tag:" authorityName "," date ":" specific.
    expect(item?.id).toMatch(/^tag:[a-z0-9.-]+,\d{4}(?:-\d{2}){0,2}:[\w.~!$&'()*+,;=:@/?-]+$/);
  });

  test('atom entry ids equal the json feed item ids', () => {
    const ctx = context({ reviews: makeReviews(5) });
    const jsonIds = jsonFeed(ctx).items.map((item) => item.id);
    const atomIds = atomEntries(renderAtomFeed(ctx)).map((entry) => child(entry, 'id').textContent);
    expect(atomIds).toEqual(jsonIds);
  });

  test('ids do not change when SITE_URL changes', () => {
    const reviews = makeReviews(3);
    const here = context({ reviews, siteUrl: 'http://localhost:4321' });
    const there = context({ reviews, siteUrl: 'https://moved.example/' });
    expect(jsonFeed(there).items.map((item) => item.id)).toEqual(
      jsonFeed(here).items.map((item) => item.id),
    );
    const atomIds = (ctx: FeedContext) => {
      const xml = renderAtomFeed(ctx);
      return [
        child(feedElement(xml), 'id').textContent,
        ...atomEntries(xml).map((entry) => child(entry, 'id').textContent),
      ];
    };
    expect(atomIds(there)).toEqual(atomIds(here));
    expect(atomIds(here).join(' ')).not.toMatch(/localhost|moved/);
    // The URLs do follow SITE_URL.
    expect(jsonFeed(there).feed_url).toBe('https://moved.example/api/feed.json');
  });

  test('without a website the tag authority is the business name under .invalid', () => {
    const noWebsite = makeBusiness({ contact: {}, founded_year: 2011 });
    expect(jsonFeed(context({ business: noWebsite })).items[0]?.id).toBe(
      'tag:summit-roofing.invalid,2011:review:r-001',
    );
    expect(tagAuthority(makeBusiness({ name: 'A&B Roofing Co.', contact: {} }))).toBe(
      'a-b-roofing-co.invalid,1998',
    );
  });

  test('a name in any script gives its own authority, in punycode, the same on every build', () => {
    const authority = (name: string) => tagAuthority(makeBusiness({ name, contact: {} }));
    expect(authority('גגות שלום')).toBe('xn----3hcamb5bi7gh.invalid,1998');
    expect(authority('屋根工房')).toBe('xn--ogt20br3g2uh.invalid,1998');
    const names = [
      'גגות שלום',
      'גגות כהן',
      '屋根工房',
      '屋根の匠',
      'Кровля Мастер',
      'Café Roofing',
    ];
    const authorities = names.map(authority);
    expect(new Set(authorities).size).toBe(names.length);
    // RFC 4151: the authority is a DNS name (ASCII letters, digits, inner hyphens) and a date.
    for (const value of authorities) expect(value).toMatch(TAG_AUTHORITY);
    const [item] = jsonFeed(
      context({ business: makeBusiness({ name: 'גגות שלום', contact: {} }) }),
    ).items;
    expect(item?.id).toBe('tag:xn----3hcamb5bi7gh.invalid,1998:review:r-001');
  });

  test('a name with no letter or digit, or one IDNA refuses, stands as a hash of itself', () => {
    const authority = (name: string) => tagAuthority(makeBusiness({ name, contact: {} }));
    const names = ['★★★', '&', '— · —', 'שלום Roofing'];
    const authorities = names.map(authority);
    expect(new Set(authorities).size).toBe(names.length);
    for (const value of authorities) {
      expect(value).toMatch(/^business-[0-9a-f]{12}\.invalid,1998$/);
      expect(value).toMatch(TAG_AUTHORITY);
    }
    expect(names.map(authority)).toEqual(authorities);
  });

  test('the same input gives identical strings', () => {
    const reviews = [...makeReviews(10), makeDetailedReview({ id: 'hard', text: HARD_TEXT })];
    expect(renderJsonFeed(context({ reviews }))).toBe(renderJsonFeed(context({ reviews })));
    expect(renderAtomFeed(context({ reviews }))).toBe(renderAtomFeed(context({ reviews })));
  });

  test('the output does not depend on the clock', () => {
    const reviews = makeReviews(3);
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2001-02-03T04:05:06Z'));
    const earlier = [renderJsonFeed(context({ reviews })), renderAtomFeed(context({ reviews }))];
    vi.setSystemTime(new Date('2039-08-09T10:11:12Z'));
    const later = [renderJsonFeed(context({ reviews })), renderAtomFeed(context({ reviews }))];
    expect(later).toEqual(earlier);
    expect(earlier.join('')).not.toMatch(/2001-02-03|2039-08-09/);
  });

  test('an empty review list still gives valid feeds', async () => {
    const ctx = context({ reviews: [] });
    const doc = jsonFeed(ctx);
    expect(validateJsonFeed(doc)).toEqual([]);
    expect(doc.items).toEqual([]);
    const xml = renderAtomFeed(ctx);
    expect(await validateAtom(xml)).toEqual([]);
    expect(atomChecksBeyondGrammar(xml, `${SITE_URL}/feed.xml`)).toEqual([]);
    expect(atomEntries(xml)).toEqual([]);
  });
});
