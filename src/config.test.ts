// Unit tests for parseConfig: defaults, and a bad value stops start-up with a
// message naming the variable.
import { describe, expect, test } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

test('WEBSUB_CLAIM_SECONDS must outlast WEBSUB_TIMEOUT_MS, so a slow request is never sent twice', () => {
  expect(() => parseConfig({ WEBSUB_CLAIM_SECONDS: '5', WEBSUB_TIMEOUT_MS: '5000' })).toThrow(
    /WEBSUB_CLAIM_SECONDS: must be longer than WEBSUB_TIMEOUT_MS/,
  );
  expect(
    parseConfig({ WEBSUB_CLAIM_SECONDS: '6', WEBSUB_TIMEOUT_MS: '5000' }).WEBSUB_CLAIM_SECONDS,
  ).toBe(6);
});

describe('defaults', () => {
  test('an empty environment gives every documented default', () => {
    expect(parseConfig({})).toEqual({
      SITE_URL: 'http://localhost:4321',
      HOST: '127.0.0.1',
      PORT: 4321,
      CONTENT_DIR: 'content',
      DATA_DIR: '.data',
      DIST_DIR: 'dist',
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: false,
      WEBSUB_LEASE_SECONDS: 864000,
      WEBSUB_LEASE_MIN_SECONDS: 3600,
      WEBSUB_LEASE_MAX_SECONDS: 864000,
      WEBSUB_RETRY_DELAYS_MS: [60000, 600000],
      WEBSUB_RATE_LIMIT_PER_MINUTE: 60,
      WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST: 100,
      WEBSUB_CLAIM_SECONDS: 30,
      WEBSUB_TIMEOUT_MS: 10000,
      MCP_ALLOWED_ORIGINS: [],
      MCP_RATE_LIMIT_PER_MINUTE: 300,
      TRUST_PROXY: '',
      LOG_LEVEL: 'info',
      METRICS_HOST: '127.0.0.1',
    });
  });

  test('DATABASE_URL and MCP_SESSION_SECRET stay unset by default', () => {
    const config = parseConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.MCP_SESSION_SECRET).toBeUndefined();
  });

  test('an empty string counts as unset', () => {
    const empty = Object.fromEntries(Object.keys(parseConfig({})).map((key) => [key, '']));
    expect(parseConfig({ ...empty, DATABASE_URL: '', MCP_SESSION_SECRET: '', PORT: '' })).toEqual(
      parseConfig({}),
    );
  });

  test('variables it does not know are ignored', () => {
    expect(parseConfig({ PATH: '/usr/bin', HOME: '/root' })).toEqual(parseConfig({}));
  });
});

describe('values', () => {
  test('parses numbers, lists and strings', () => {
    const config = parseConfig({
      SITE_URL: 'https://reviews.example.com',
      HOST: '0.0.0.0',
      PORT: '8080',
      CONTENT_DIR: '/srv/content',
      WEBSUB_LEASE_SECONDS: '7200',
      WEBSUB_RETRY_DELAYS_MS: '0,1000,5000',
      WEBSUB_RATE_LIMIT_PER_MINUTE: '10',
      DATABASE_URL: 'postgres://hub@db/reviews',
      MCP_SESSION_SECRET: 'a-secret-of-16-chars',
      MCP_ALLOWED_ORIGINS: ' https://a.example , ,https://b.example',
    });
    expect(config).toMatchObject({
      SITE_URL: 'https://reviews.example.com',
      HOST: '0.0.0.0',
      PORT: 8080,
      CONTENT_DIR: '/srv/content',
      WEBSUB_LEASE_SECONDS: 7200,
      WEBSUB_RETRY_DELAYS_MS: [0, 1000, 5000],
      WEBSUB_RATE_LIMIT_PER_MINUTE: 10,
      DATABASE_URL: 'postgres://hub@db/reviews',
      MCP_SESSION_SECRET: 'a-secret-of-16-chars',
      MCP_ALLOWED_ORIGINS: ['https://a.example', 'https://b.example'],
    });
  });

  test.each([
    ['https://reviews.example.com/', 'https://reviews.example.com'],
    ['https://reviews.example.com///', 'https://reviews.example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
  ])('SITE_URL %s becomes %s (trailing slashes stripped)', (value, expected) => {
    expect(parseConfig({ SITE_URL: value }).SITE_URL).toBe(expected);
  });

  test.each([
    ['1', true],
    ['true', true],
    ['on', true],
    ['yes', true],
    ['0', false],
    ['false', false],
    ['off', false],
    ['no', false],
  ])('WEBSUB_ALLOW_PRIVATE_CALLBACKS=%s is %s', (value, expected) => {
    expect(
      parseConfig({ WEBSUB_ALLOW_PRIVATE_CALLBACKS: value }).WEBSUB_ALLOW_PRIVATE_CALLBACKS,
    ).toBe(expected);
  });

  test('PORT 0 (any free port) is allowed', () => {
    expect(parseConfig({ PORT: '0' }).PORT).toBe(0);
  });

  test('lease min equal to max is allowed', () => {
    const config = parseConfig({
      WEBSUB_LEASE_MIN_SECONDS: '7200',
      WEBSUB_LEASE_MAX_SECONDS: '7200',
    });
    expect([config.WEBSUB_LEASE_MIN_SECONDS, config.WEBSUB_LEASE_MAX_SECONDS]).toEqual([
      7200, 7200,
    ]);
  });
});

describe('bad values stop start-up naming the variable', () => {
  test.each([
    ['PORT', 'abc', 'expected a port number'],
    ['PORT', '-1', 'expected a port number'],
    ['PORT', '80.5', 'expected a port number'],
    ['PORT', '65536', 'Too big: expected number to be <=65535'],
    [
      'SITE_URL',
      'not-a-url',
      'expected an absolute http(s) URL such as https://reviews.example.com',
    ],
    [
      'SITE_URL',
      'ftp://reviews.example.com',
      'expected an absolute http(s) URL such as https://reviews.example.com',
    ],
    [
      'SITE_URL',
      'reviews.example.com',
      'expected an absolute http(s) URL such as https://reviews.example.com',
    ],
    [
      'SITE_URL',
      'https://reviews.example.com/?utm=1',
      'expected a base URL without credentials, ?query or #fragment',
    ],
    [
      'SITE_URL',
      'https://reviews.example.com/#top',
      'expected a base URL without credentials, ?query or #fragment',
    ],
    [
      'SITE_URL',
      'https://example.com/reviews/',
      'expected no path: the site is served at the root of its host (https://reviews.example.com, not https://example.com/reviews)',
    ],
    [
      'SITE_URL',
      'https://user:pw@reviews.example.com',
      'expected a base URL without credentials, ?query or #fragment',
    ],
    [
      'WEBSUB_RETRY_DELAYS_MS',
      '1,,2',
      'expected comma-separated milliseconds such as 60000,600000',
    ],
    [
      'WEBSUB_RETRY_DELAYS_MS',
      '1000,',
      'expected comma-separated milliseconds such as 60000,600000',
    ],
    [
      'WEBSUB_RETRY_DELAYS_MS',
      '1s,2s',
      'expected comma-separated milliseconds such as 60000,600000',
    ],
    [
      'WEBSUB_RETRY_DELAYS_MS',
      '1, 2',
      'expected comma-separated milliseconds such as 60000,600000',
    ],
    [
      'WEBSUB_RETRY_DELAYS_MS',
      '99999999999999999999',
      'each delay must be at most 9007199254740991 ms',
    ],
    ['WEBSUB_ALLOW_PRIVATE_CALLBACKS', 'maybe', 'expected one of 1/0, true/false, on/off, yes/no'],
    ['WEBSUB_ALLOW_PRIVATE_CALLBACKS', '2', 'expected one of 1/0, true/false, on/off, yes/no'],
    ['WEBSUB_LEASE_SECONDS', '0', 'Too small: expected number to be >0'],
    ['WEBSUB_LEASE_SECONDS', '1.5', 'expected a whole number'],
    ['WEBSUB_LEASE_MIN_SECONDS', 'ten', 'expected a whole number'],
    ['WEBSUB_LEASE_MAX_SECONDS', '-5', 'expected a whole number'],
    ['WEBSUB_RATE_LIMIT_PER_MINUTE', '0', 'Too small: expected number to be >0'],
    ['WEBSUB_MAX_SUBSCRIPTIONS_PER_HOST', '1e3', 'expected a whole number'],
    [
      'WEBSUB_CLAIM_SECONDS',
      '99999999999999999999',
      'Too big: expected number to be <=9007199254740991',
    ],
    ['WEBSUB_TIMEOUT_MS', '10s', 'expected a whole number'],
    ['MCP_SESSION_SECRET', 'short', 'must be at least 16 characters'],
  ])('%s=%j fails with "%s"', (name, value, message) => {
    const [header, ...lines] = configError({ [name]: value }).message.split('\n');
    expect(header).toBe('Invalid configuration:');
    expect(lines).toContain(`  ${name}: ${message}`);
    for (const line of lines) expect(line).toMatch(new RegExp(`^  ${name}: `));
  });

  test('every bad variable is named at once', () => {
    const error = configError({ PORT: 'abc', SITE_URL: 'not-a-url' });
    expect(error.message.split('\n').slice(1).sort()).toEqual([
      '  PORT: expected a port number',
      '  SITE_URL: expected an absolute http(s) URL such as https://reviews.example.com',
    ]);
  });

  test('a lease minimum above the maximum is rejected', () => {
    const error = configError({
      WEBSUB_LEASE_MIN_SECONDS: '7201',
      WEBSUB_LEASE_MAX_SECONDS: '7200',
    });
    expect(error.message).toBe(
      'Invalid configuration:\n  WEBSUB_LEASE_MIN_SECONDS: must not exceed WEBSUB_LEASE_MAX_SECONDS',
    );
  });

  test('a lease minimum above the default maximum is rejected', () => {
    const error = configError({ WEBSUB_LEASE_MIN_SECONDS: '864001' });
    expect(error.message).toContain('WEBSUB_LEASE_MIN_SECONDS');
  });
});

describe('operations settings', () => {
  test.each(['loopback', '1', 'true', 'false', '10.0.0.0/8, 192.168.1.1', 'uniquelocal,::1'])(
    'TRUST_PROXY=%s is accepted',
    (value) => {
      expect(parseConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(value);
    },
  );

  test.each(['not-an-address', '10.0.0.0/99', 'loopback,bogus'])(
    'TRUST_PROXY=%s stops start-up naming the variable',
    (value) => {
      expect(configError({ TRUST_PROXY: value }).message).toMatch(/TRUST_PROXY: expected true/);
    },
  );

  test('LOG_LEVEL must be a pino level, METRICS_PORT a port', () => {
    expect(configError({ LOG_LEVEL: 'verbose' }).message).toMatch(/LOG_LEVEL: expected one of/);
    expect(configError({ METRICS_PORT: '99999' }).message).toMatch(/METRICS_PORT/);
    expect(parseConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(parseConfig({}).METRICS_PORT).toBeUndefined();
  });

  test('MCP_RATE_LIMIT_PER_MINUTE is a positive whole number', () => {
    expect(configError({ MCP_RATE_LIMIT_PER_MINUTE: '0' }).message).toMatch(
      /MCP_RATE_LIMIT_PER_MINUTE/,
    );
    expect(parseConfig({ MCP_RATE_LIMIT_PER_MINUTE: '30' }).MCP_RATE_LIMIT_PER_MINUTE).toBe(30);
  });
});
