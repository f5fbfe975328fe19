import { beforeEach, expect, test } from 'vitest';
import {
  FEED,
  REVIEWS,
  SITE,
  subscribe,
  testContext,
  type TestHub,
} from '../../test/support/hub-unit.ts';
import { describeReports, publishTopics } from './publish.ts';
import { HubRequestError } from './requests.ts';

let reviews: { id: string; text: string }[];
let hub: TestHub;

beforeEach(() => {
  reviews = [
    { id: 'a', text: 'one' },
    { id: 'b', text: 'two' },
  ];
  hub = testContext({
    topicContent: (path) => ({
      body: Buffer.from(path === '/reviews.json' ? JSON.stringify({ reviews }) : 'feed bytes'),
      contentType: 'application/json',
    }),
  });
});

test('the first publish of a topic queues one delivery per active subscriber; the same bytes again queue nothing', async () => {
  await subscribe(hub, 'https://sub.example/a', FEED);
  await subscribe(hub, 'https://sub.example/b', FEED);
  expect(await publishTopics(hub.ctx, [FEED])).toEqual([
    { topic: FEED, changed: true, queued: 2, reviews: null },
  ]);
  expect(await publishTopics(hub.ctx, [FEED])).toEqual([
    { topic: FEED, changed: false, queued: 0, reviews: null },
  ]);
});

test('a reviews change is counted as added, changed and removed reviews against the last distribution', async () => {
  const [first] = await publishTopics(hub.ctx, [REVIEWS]);
  expect(first!.reviews).toEqual({ added: 2, changed: 0, removed: 0, first: true });
  reviews = [
    { id: 'a', text: 'one, edited' },
    { id: 'c', text: 'three' },
    { id: 'd', text: 'four' },
  ];
  const [second] = await publishTopics(hub.ctx, [REVIEWS]);
  expect(second!.reviews).toEqual({ added: 2, changed: 1, removed: 1, first: false });
});

test('an unknown topic is a 400', async () => {
  await expect(publishTopics(hub.ctx, [`${SITE}/other.xml`])).rejects.toEqual(
    new HubRequestError(400, `unknown topic ${SITE}/other.xml`),
  );
});

test('the report has one line per topic, saying what changed and how many are notified', () => {
  expect(
    describeReports([
      { topic: FEED, changed: false, queued: 0, reviews: null },
      { topic: FEED, changed: true, queued: 1, reviews: null },
      {
        topic: REVIEWS,
        changed: true,
        queued: 3,
        reviews: { added: 1, changed: 2, removed: 0, first: false },
      },
      {
        topic: REVIEWS,
        changed: true,
        queued: 0,
        reviews: { added: 6, changed: 0, removed: 0, first: true },
      },
    ]).split('\n'),
  ).toEqual([
    `${FEED}: unchanged, nothing sent`,
    `${FEED}: changed, notifying 1 subscriber`,
    `${REVIEWS}: changed (reviews: 1 added, 2 changed, 0 removed), notifying 3 subscribers`,
    `${REVIEWS}: changed (first distribution: 6 reviews), notifying 0 subscribers`,
  ]);
});
