import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { createAspectAnalyzer, PIPELINE_STEPS } from '../aspects.ts';
import { bootstrapIntervals, scoreAbsa } from '../absa-metrics.ts';
import { parseCorpusFile, type CorpusSentence } from '../corpus.ts';
import { loadLexicon } from '../../../content/load-lexicon.ts';
import { ASPECT_IDS, EMPTY_LEXICON } from '../lexicon.ts';
import {
  DEFAULT_HYPERPARAMETERS,
  aspectModelFromShared,
  clauseMaxima,
  detectionInput,
  mixDetection,
  parseAspectModel,
  predictAspects,
  passesGate,
  reportedBy,
  scoreSentence,
  serializeAspectModel,
  shareAspectModel,
  splitLongClauses,
  LONG_CLAUSE_WORDS,
  trainAspectModel,
  trainPolarityConv,
  MODEL_POLARITIES,
  type AspectModel,
} from './aspect-model.ts';
import { convScores, rowsOf } from './conv.ts';
import { featuresOf, tokenizeForModel } from './features.ts';
import { averageOf, scores, sigmoid, softmax, train } from './logistic.ts';
import { DIMENSIONS, parseWordVectors, type WordVectors } from './word-vectors.ts';
import { defaultAspectModel, defaultWordVectors } from './default-model.ts';

const root = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

async function corpus(): Promise<CorpusSentence[]> {
  const dir = path.join(root, 'training/aspects/corpus');
  const sentences: CorpusSentence[] = [];
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.jsonl')).sort())
    sentences.push(...parseCorpusFile(name, await readFile(path.join(dir, name), 'utf8')));
  return sentences;
}

test('training is deterministic for a seed, and the seed matters', async () => {
  const sample = (await corpus()).slice(0, 400);
  // A smaller convolutional detector than the shipped one, to keep the test quick.
  const hyper = { ...DEFAULT_HYPERPARAMETERS, convFilters: 16 };
  const first = serializeAspectModel(trainAspectModel(sample, defaultWordVectors(), hyper));
  expect(serializeAspectModel(trainAspectModel(sample, defaultWordVectors(), hyper))).toBe(first);
  const other = serializeAspectModel(
    trainAspectModel(sample, defaultWordVectors(), { ...hyper, seed: 1 }),
  );
  expect(other).not.toBe(first);
  expect(JSON.parse(other).conv).not.toEqual(JSON.parse(first).conv);
}, 120_000);

test('the logistic detector is the mean of one training per seed', async () => {
  const sample = (await corpus()).slice(0, 400);
  const hyper = { ...DEFAULT_HYPERPARAMETERS, convFilters: 0 };
  const runs = [0, 1].map(
    (k) =>
      trainAspectModel(sample, defaultWordVectors(), {
        ...hyper,
        detectionSeeds: 1,
        seed: hyper.seed + k,
      }).detection,
  );
  expect(scores(runs[0]!, [...runs[0]!.weights.keys()])).not.toEqual(
    scores(runs[1]!, [...runs[1]!.weights.keys()]),
  );
  const { detection } = trainAspectModel(sample, defaultWordVectors(), {
    ...hyper,
    detectionSeeds: 2,
  });
  const mean = averageOf(runs);
  expect([...detection.weights.keys()].sort()).toEqual([...mean.weights.keys()].sort());
  for (const [bucket, row] of mean.weights)
    expect([...detection.weights.get(bucket)!]).toEqual([...row]);
}, 120_000);

test('the shipped model is exactly what npm run train:aspects makes from the corpus and the validation set', async () => {
  const shipped = await readFile(
    path.join(root, 'src/core/insights/model/aspect-model.json'),
    'utf8',
  );
  // The script itself, in a plain Node process: training under the test runner's module
  // transform runs about three times slower.
  const dir = await mkdtemp(path.join(tmpdir(), 'aspect-model-'));
  const out = path.join(dir, 'aspect-model.json');
  try {
    await run(process.execPath, ['scripts/train-aspects.ts', '--out', out], { cwd: root });
    const trained = await readFile(out, 'utf8');
    expect(trained).toBe(shipped);
    // The settings are the validation set's pick, not the defaults training starts from.
    const keys = ['convWeight', 'threshold', 'clauseThreshold', 'lexiconFloor', 'gate'] as const;
    const settings = JSON.parse(trained) as Record<(typeof keys)[number], number>;
    expect(keys.map((key) => settings[key])).not.toEqual(
      keys.map((key) => DEFAULT_HYPERPARAMETERS[key]),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  // Training takes 10 to 23 minutes on a free core; the limit allows for a busy machine.
}, 3_300_000);

test('a serialized model predicts what it predicted before', () => {
  const model = defaultAspectModel();
  const again = parseAspectModel(serializeAspectModel(model), defaultWordVectors());
  for (const text of ['Great roof but the office never called back.', 'Not a single nail left.'])
    expect(predictAspects(again, text)).toEqual(predictAspects(model, text));
});

test("a model shared with another thread predicts what it does here, from this thread's tables", () => {
  const model = defaultAspectModel();
  const shared = shareAspectModel(model);
  for (const part of [shared.detection, shared.polarity])
    expect(part.table.kind === 'hundredths' && part.table.cells.buffer).toBeInstanceOf(
      SharedArrayBuffer,
    );
  expect(shared.contributions.buffer).toBeInstanceOf(SharedArrayBuffer);
  // What a worker thread gets from postMessage.
  const there = aspectModelFromShared(structuredClone(shared));
  for (const text of [
    'Great roof but the office never called back.',
    'The quote was fair and the crew left the yard spotless.',
    'Not a single nail left.',
  ]) {
    const [a, b] = [
      scoreSentence(there, tokenizeForModel(text)),
      scoreSentence(model, tokenizeForModel(text)),
    ];
    expect(a.probabilities).toEqual(b.probabilities);
    expect(predictAspects(there, text)).toEqual(predictAspects(model, text));
  }
});

test('each stance comes from its own clause, and every pipeline step reports', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const analyzer = createAspectAnalyzer(lexicon, { model: defaultAspectModel() });
  const trace = analyzer.explainSentence('Great roof but the office never called back.');
  expect(trace.aspects).toEqual([
    { aspect: 'workmanship', polarity: 'positive' },
    { aspect: 'communication', polarity: 'negative' },
  ]);
  const steps = new Set(trace.steps!.map((s) => s.step));
  for (const step of Object.keys(PIPELINE_STEPS))
    if (step !== 'tie-break') expect(steps, step).toContain(step);
  expect(trace.steps!.find((s) => s.step === 'contrast/negation')!.result).toContain(
    'clause "great roof"',
  );
});

test('a run-on sentence keeps the aspects its parts name however many parts follow', () => {
  // Read whole, a long run-on scored below every threshold: ten "and"-joined statements gave one
  // aspect, six of them gave four. Without a lexicon, so that only the model decides.
  const analyzer = createAspectAnalyzer(EMPTY_LEXICON, { model: defaultAspectModel() });
  const parts = [
    'the estimate was clear',
    'the crew showed up on time',
    'they cleaned up every day',
    'the price was fair',
    'the crew was very professional',
    'the roof looks great',
    'the warranty is solid',
  ];
  const found = (count: number) =>
    analyzer.analyzeSentence(`I was nervous at first and ${parts.slice(0, count).join(' and ')}.`);
  let previous: string[] = [];
  for (let count = 3; count <= parts.length; count++) {
    const aspects = found(count).map((o) => `${o.aspect}:${o.polarity}`);
    expect(aspects, `${count} parts`).toEqual(expect.arrayContaining(previous));
    previous = aspects;
  }
  expect(previous).toEqual(
    expect.arrayContaining([
      'estimate_inspection:positive',
      'timeliness:positive',
      'cleanup:positive',
      'price_value:positive',
      'professionalism:positive',
      'workmanship:positive',
      'warranty:positive',
    ]),
  );
});

test('splitLongClauses splits only clauses over the limit, before joining words, into parts of four words or more', () => {
  const words = (text: string) => text.split(' ');
  const short = words('the price was fair and the crew was neat and tidy');
  expect(splitLongClauses(short, [[0, short.length]])).toEqual([[0, short.length]]);
  const long = words(
    'we were nervous and the estimate was clear and then the crew came and went and they cleaned up so well plus the price was fair and we would hire them again also',
  );
  expect(long.length).toBeGreaterThan(LONG_CLAUSE_WORDS);
  const ranges = splitLongClauses(long, [
    [0, 2],
    [2, long.length],
  ]);
  expect(ranges.map(([from, to]) => long.slice(from, to).join(' '))).toEqual([
    'we were',
    'nervous and the estimate was clear',
    'and then the crew came',
    'and went and they cleaned up',
    'so well plus the price was fair',
    'and we would hire them again also',
  ]);
});

test('without a model the analyzer is the lexicon alone', async () => {
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  expect(createAspectAnalyzer(lexicon).explainSentence('Great roof.').steps).toBeUndefined();
});

test('bootstrap intervals are repeatable and hold the point estimate', () => {
  const items = Array.from({ length: 60 }, (_, i) => ({
    gold: i % 3 === 0 ? [] : [{ aspect: 'cleanup' as const, polarity: 'positive' as const }],
    predicted:
      i % 5 === 0
        ? []
        : [
            {
              aspect: 'cleanup' as const,
              polarity: i % 7 === 0 ? ('negative' as const) : ('positive' as const),
            },
          ],
  }));
  const a = bootstrapIntervals(items, 200, 3);
  expect(bootstrapIntervals(items, 200, 3)).toEqual(a);
  const point = scoreAbsa(items);
  expect(a.joint_f1.low).toBeLessThanOrEqual(point.joint.f1);
  expect(a.joint_f1.high).toBeGreaterThanOrEqual(point.joint.f1);
  expect(a.aspect_f1.low).toBeLessThan(a.aspect_f1.high);
});

test('scoring sums per-word vector contributions and gets the scores training sees', () => {
  const model = defaultAspectModel();
  for (const text of [
    'The foreman was surly, and the invoice had three surprise fees.',
    'Nobody called us back for a week!',
    'xqzv',
  ]) {
    const tokens = tokenizeForModel(text);
    const input = detectionInput(model.vectors, model.vectorScale, tokens);
    const expected = scores(model.detection, input.features, input.values);
    const scored = scoreSentence(model, tokens);
    scored.parts.sentence.logistic.forEach((s, k) => expect(s).toBeCloseTo(expected[k]!, 9));
    // Without the convolutional detector's share, the probabilities are the logistic model's.
    scoreSentence({ ...model, convWeight: 0 }, tokens).probabilities.forEach((p, k) =>
      expect(p).toBeCloseTo(sigmoid(expected[k]!), 9),
    );
  }
});

test("detection mixes the two detectors' raw scores by the convolutional detector's share", () => {
  const parts = { logistic: [2, -1], conv: [-2, 3] };
  expect(mixDetection(parts, 0)).toEqual([sigmoid(2), sigmoid(-1)]);
  expect(mixDetection(parts, 1)).toEqual([sigmoid(-2), sigmoid(3)]);
  expect(mixDetection(parts, 0.25)).toEqual([sigmoid(1), sigmoid(0)]);
  expect(mixDetection({ logistic: [2], conv: null }, 0.5)).toEqual([sigmoid(2)]);
  // Clauses: each aspect's best clause, after mixing.
  expect(clauseMaxima([parts, { logistic: [0, 0], conv: [0, 0] }], 0.25)[0]).toBe(sigmoid(1));
  expect(clauseMaxima([], 0.25)).toEqual([...ASPECT_IDS.map(() => 0), 0]);
  // The shipped model has the detector, and its scores are what its probabilities are made of.
  const model = defaultAspectModel();
  expect(model.conv).not.toBeNull();
  expect(model.convWeight).toBeGreaterThan(0);
  const scored = scoreSentence(
    model,
    tokenizeForModel('The crew was rude, but the roof itself is solid.'),
  );
  expect(scored.probabilities).toEqual(mixDetection(scored.parts.sentence, model.convWeight));
  expect(scored.clauseProbabilities).toEqual(clauseMaxima(scored.parts.clauses, model.convWeight));
  expect(scored.parts.clauses).toHaveLength(2);
});

test("an unseen word's pretrained vector moves detection toward its neighbours' aspect", async () => {
  // "surly" is in no corpus sentence: only its vector can tell the model what it means.
  expect((await corpus()).some(({ text }) => /\bsurly\b/i.test(text))).toBe(false);
  const model = defaultAspectModel();
  const professionalism = ASPECT_IDS.indexOf('professionalism');
  const text = 'The foreman was surly.';
  expect(model.vectors.index.has('surly')).toBe(true);
  const without: WordVectors = {
    ...model.vectors,
    index: new Map([...model.vectors.index].filter(([word]) => word !== 'surly')),
  };
  const withVector = scoreSentence(model, tokenizeForModel(text)).probabilities[professionalism]!;
  const withoutVector = scoreSentence({ ...model, vectors: without }, tokenizeForModel(text))
    .probabilities[professionalism]!;
  expect(withVector).toBeGreaterThan(withoutVector + 0.05);
});

test('a clause that plainly speaks of an aspect is detected inside a long sentence', () => {
  // At a clause threshold of 0.9 (the shipped model's is chosen on the validation set).
  const model = { ...defaultAspectModel(), clauseThreshold: 0.9 };
  const text = 'Solid roof, but the guy who came out for the estimate was an hour late.';
  const scored = scoreSentence(model, tokenizeForModel(text));
  const workmanship = ASPECT_IDS.indexOf('workmanship');
  expect(scored.probabilities[workmanship]).toBeLessThan(model.threshold);
  expect(scored.clauseProbabilities[workmanship]).toBeGreaterThanOrEqual(model.clauseThreshold);
  expect(predictAspects(model, text)).toContainEqual(
    expect.objectContaining({ aspect: 'workmanship', polarity: 'positive' }),
  );
  expect(predictAspects({ ...model, clauseThreshold: 2 }, text).map((o) => o.aspect)).not.toContain(
    'workmanship',
  );
  // A sentence of one clause is its own clause: nothing is counted twice.
  expect(
    scoreSentence(model, tokenizeForModel('Finished before lunch')).clauseProbabilities,
  ).toEqual([...ASPECT_IDS.map(() => 0), 0]);
});

test('a model refuses word vectors other than those it was trained with', () => {
  const model = defaultAspectModel();
  const json = serializeAspectModel(model);
  const other = parseWordVectors('roof\n', new Uint8Array(DIMENSIONS));
  expect(() => parseAspectModel(json, other)).toThrow(/trained with word vectors .* retrain/);
});

test('the model reports what reaches a threshold; the lexicon only what the model allows', async () => {
  const settings = { threshold: 0.9, clauseThreshold: 0.98, lexiconFloor: 0.2, gate: 0.5 };
  expect(reportedBy(settings, 0.9, 0, false, 0.5)).toBe('model');
  expect(reportedBy(settings, 0.1, 0.98, true, 0.5)).toBe('model');
  expect(reportedBy(settings, 0.5, 0.9, true, 0.5)).toBe('lexicon');
  expect(reportedBy(settings, 0.5, 0.9, false, 0.5)).toBeNull();
  expect(reportedBy(settings, 0.19, 0.9, true, 0.5)).toBeNull();
  // Below the gate a sentence reports nothing, however sure one aspect's output is.
  expect(reportedBy(settings, 0.99, 0.99, true, 0.49)).toBeNull();
  expect(reportedBy({ ...settings, gate: 0 }, 0.99, 0, false, 0)).toBe('model');
  // The pipeline's lexicon step follows the model's floor: a sentence the lexicon names
  // price_value for (its cue "deposit") and the model puts between the floor and the threshold.
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const model = defaultAspectModel();
  const price = ASPECT_IDS.indexOf('price_value');
  const text = [
    'We paid the deposit.',
    'We paid our deposit.',
    'They took a deposit.',
    'My wife paid the deposit.',
    'I paid our deposit.',
    'We paid a deposit.',
  ].find((candidate) => {
    const scored = scoreSentence(model, tokenizeForModel(candidate));
    return (
      scored.probabilities[price]! >= model.lexiconFloor &&
      passesGate(model, scored.anyProbability) &&
      reportedBy(
        model,
        scored.probabilities[price]!,
        scored.clauseProbabilities[price]!,
        false,
        scored.anyProbability,
      ) === null
    );
  });
  expect(text, 'a sentence between the floor and the threshold').toBeDefined();
  const added = (floor: number) =>
    createAspectAnalyzer(lexicon, { model: { ...model, lexiconFloor: floor } })
      .explainSentence(text!)
      .steps!.find((s) => s.step === 'lexicon')!.result;
  expect(added(model.lexiconFloor)).toBe('price_value');
  expect(added(1.01)).toBe('nothing added');
});

test('a feature seen in fewer examples than the minimum count gets no weight', () => {
  const options = { classes: 2, epochs: 2, learningRate: 0.3, l2: 0, seed: 1 };
  const examples = [
    { features: [1, 2], label: 0 },
    { features: [1, 3], label: 1 },
  ];
  expect([...train(examples, options).weights.keys()].sort()).toEqual([1, 2, 3]);
  expect([...train(examples, { ...options, minCount: 2 }).weights.keys()]).toEqual([1]);
});

test('words one and two apart are features, so a word in between does not break a phrase', () => {
  const features = (text: string) => new Set(featuresOf(tokenizeForModel(text)));
  // What two sentences share beyond the features of their shared first and last words.
  const sharedPairs = (a: string, b: string) => {
    const [first, last] = [features('alpha'), features('omega')];
    const other = features(b);
    return [...features(a)].filter((f) => other.has(f) && !first.has(f) && !last.has(f)).length;
  };
  // The middle words share no letters' n-grams, so only word pairs can be shared.
  expect(sharedPairs('alpha kiwi omega', 'alpha plum omega')).toBe(1);
  expect(sharedPairs('alpha kiwi fig omega', 'alpha plum yam omega')).toBe(1);
  expect(sharedPairs('alpha kiwi fig pear omega', 'alpha plum yam cod omega')).toBe(0);
});

test('a shipped model with a row of the wrong length is refused, naming the bucket', () => {
  const data = JSON.parse(serializeAspectModel(defaultAspectModel())) as {
    polarity: Record<string, number[]>;
  };
  const bucket = Object.keys(data.polarity)[0]!;
  data.polarity[bucket] = [0.5, -0.5];
  expect(() => parseAspectModel(JSON.stringify(data), defaultWordVectors())).toThrow(
    `aspect model: bucket ${bucket} has 2 weights, expected 3`,
  );
}, 60_000);

test('the "any aspect" output tells opinions from story, and below the gate nothing is reported', async () => {
  const model = defaultAspectModel();
  const any = (text: string) => scoreSentence(model, tokenizeForModel(text)).anyProbability;
  expect(any('The crew left nails all over our driveway.')).toBeGreaterThan(0.5);
  expect(any('We bought the house in the spring of 2015.')).toBeLessThan(0.5);
  const { lexicon } = await loadLexicon(path.join(root, 'content'));
  const text = 'Great roof but the office never called back.';
  const explain = (gate: number) =>
    createAspectAnalyzer(lexicon, { model: { ...model, gate } }).explainSentence(text);
  expect(explain(0).aspects.length).toBe(2);
  // A gate no sentence passes silences the model and the owner's lexicon alike.
  const closed = explain(1.01);
  expect(closed.aspects).toEqual([]);
  expect(closed.steps!.find((s) => s.step === 'gate')!.result).toMatch(/gate 1.01: closed$/);
  expect(closed.steps!.find((s) => s.step === 'lexicon')!.result).toBe('nothing added');
});

test('a shipped model with a missing or negative decision setting is refused, naming it', () => {
  const json = serializeAspectModel(defaultAspectModel());
  for (const [name, value] of [
    ['gate', -0.1],
    ['gate', undefined],
    ['threshold', 'high'],
  ] as const) {
    const data = JSON.parse(json) as Record<string, unknown>;
    data[name] = value;
    expect(() => parseAspectModel(JSON.stringify(data), defaultWordVectors())).toThrow(
      `aspect model: ${name} must be a number of at least 0`,
    );
  }
}, 60_000);

describe('the polarity network', () => {
  // A small network trained on part of the corpus, to keep the tests quick.
  let withNetwork: AspectModel;
  beforeAll(async () => {
    const hyper = { ...DEFAULT_HYPERPARAMETERS, polarityConvFilters: 8, convEpochs: 1 };
    const polarityConv = trainPolarityConv(
      (await corpus()).slice(0, 600),
      defaultWordVectors(),
      hyper,
    );
    withNetwork = {
      ...defaultAspectModel(),
      polarityConv,
      polarityConvWeight: 0.4,
      polarityConvSpan: 'sentence',
    };
  }, 60_000);

  const text = 'Great roof but the office never called back.';

  test("a mention's polarity mixes the network's scores of its aspect's polarities by its share", () => {
    const tokens = tokenizeForModel(text);
    const plain = scoreSentence({ ...withNetwork, polarityConv: null }, tokens);
    const aspect = 'communication';
    const first = ASPECT_IDS.indexOf(aspect) * MODEL_POLARITIES.length;
    for (const span of ['sentence', 'clause'] as const) {
      const model = { ...withNetwork, polarityConvSpan: span };
      const opinion = scoreSentence(model, tokens).opinion(aspect);
      const { clause, polarities } = plain.opinion(aspect);
      // The network reads the span's words that have a vector.
      const words = span === 'sentence' ? tokens.words : clause.split(' ');
      const network = convScores(
        model.polarityConv!,
        model.vectors,
        rowsOf(model.vectors, words),
      ).slice(first, first + 3);
      // The polarity model's log-probabilities differ from its raw scores by a constant, which a
      // softmax does not see.
      const expected = softmax(polarities.map((p, k) => 0.6 * Math.log(p) + 0.4 * network[k]!));
      opinion.polarities.forEach((p, k) => expect(p).toBeCloseTo(expected[k]!, 9));
      expect(opinion.polarities).not.toEqual(polarities);
      expect(opinion.clause).toBe(clause);
    }
    // The shipped model has one.
    expect(defaultAspectModel().polarityConv).not.toBeNull();
    expect(defaultAspectModel().polarityConvWeight).toBeGreaterThan(0);
    // At a share of 0 the network is not read.
    expect(
      scoreSentence({ ...withNetwork, polarityConvWeight: 0 }, tokens).opinion(aspect),
    ).toEqual(plain.opinion(aspect));
  });

  test('it is saved with the model and read back; a model without one saves no trace of it', () => {
    const json = serializeAspectModel(withNetwork);
    const again = parseAspectModel(json, defaultWordVectors());
    expect(again.polarityConvWeight).toBe(0.4);
    expect(again.polarityConvSpan).toBe('sentence');
    expect(again.polarityConv).not.toBeNull();
    // Saved rounded: saved again, the same bytes; read again, the same predictions.
    expect(serializeAspectModel(again)).toBe(json);
    const labels = (model: AspectModel) =>
      predictAspects(model, text).map(({ aspect, polarity }) => `${aspect}:${polarity}`);
    expect(labels(again)).toEqual(labels(withNetwork));
    expect(predictAspects(parseAspectModel(json, defaultWordVectors()), text)).toEqual(
      predictAspects(again, text),
    );
    const without = JSON.parse(
      serializeAspectModel({ ...defaultAspectModel(), polarityConv: null }),
    ) as object;
    expect(Object.keys(without).filter((key) => key.startsWith('polarityConv'))).toEqual([]);
  });

  test('a saved share or span out of range is refused, naming it', () => {
    const data = JSON.parse(serializeAspectModel(withNetwork)) as Record<string, unknown>;
    for (const [name, value, message] of [
      ['polarityConvWeight', 1.5, 'polarityConvWeight must be a number from 0 to 1'],
      ['polarityConvWeight', 'half', 'polarityConvWeight must be a number from 0 to 1'],
      ['polarityConvSpan', 'word', 'polarityConvSpan must be "sentence" or "clause"'],
      [
        'polarityConv',
        { ...(data['polarityConv'] as object), bias: [1] },
        "the polarity network's bias needs 8 numbers, found 1",
      ],
    ] as const)
      expect(() =>
        parseAspectModel(JSON.stringify({ ...data, [name]: value }), defaultWordVectors()),
      ).toThrow(`aspect model: ${message}`);
  });

  test("training reads each sentence's (aspect, polarity) pairs and is deterministic", async () => {
    const sample = (await corpus()).slice(0, 300);
    const hyper = { ...DEFAULT_HYPERPARAMETERS, polarityConvFilters: 4, convEpochs: 1 };
    const vectors = defaultWordVectors();
    const once = trainPolarityConv(sample, vectors, hyper)!;
    expect(trainPolarityConv(sample, vectors, hyper)).toEqual(once);
    expect(once.classes).toBe(ASPECT_IDS.length * 3);
    expect(trainPolarityConv(sample, vectors, { ...hyper, polarityConvFilters: 0 })).toBeNull();
    // The same sentences with every polarity flipped between positive and negative train a
    // different network.
    const flipped = sample.map((item) => ({
      ...item,
      aspects: item.aspects.map((a) => ({
        ...a,
        polarity:
          a.polarity === 'positive'
            ? ('negative' as const)
            : a.polarity === 'negative'
              ? ('positive' as const)
              : a.polarity,
      })),
    }));
    expect(trainPolarityConv(flipped, vectors, hyper)!.outputBias).not.toEqual(once.outputBias);
  }, 60_000);
});
