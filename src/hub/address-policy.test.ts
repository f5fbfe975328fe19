import { expect, test } from 'vitest';
import { isForbiddenAddress } from './address-policy.ts';

test.each([
  '127.0.0.1',
  '127.255.255.254',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '100.127.255.255',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '::1',
  '::',
  'fe80::1',
  'fc00::1',
  'fd00:ec2::254',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:a9fe:a9fe',
  '64:ff9b::10.0.0.1',
  '64:ff9b::a00:1',
  'ff02::1',
  'not-an-ip',
])('refuses %s', (address) => {
  expect(isForbiddenAddress(address)).toBe(true);
});

test.each([
  '93.184.216.34',
  '8.8.8.8',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
])('allows the public address %s', (address) => {
  expect(isForbiddenAddress(address)).toBe(false);
});

test('decimal, octal and hex forms are normalised by the URL parser before the check', () => {
  for (const url of [
    'https://2130706433/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://[::ffff:127.0.0.1]/',
  ]) {
    const { hostname } = new URL(url);
    expect(isForbiddenAddress(hostname.replace(/^\[|\]$/g, '')), url).toBe(true);
  }
});

// Embedded-IPv4 and translation ranges that reach any IPv4 address, private ones included: the
// hub refuses the whole range rather than guess which IPv4 address a gateway would pick.
test.each([
  '::7f00:1', // IPv4-compatible ::127.0.0.1
  '::127.0.0.1',
  '::a00:1', // ::10.0.0.1
  '::808:808', // IPv4-compatible form of a public address: deprecated, refused all the same
  '::ffff:0:7f00:1', // IPv4-translated ::ffff:0:127.0.0.1
  '::ffff:0:a9fe:a9fe',
  '::ffff:0:808:808',
  '0:0:0:0:0:ffff:7f00:1', // uncompressed IPv4-mapped
  '64:ff9b:1::a00:1', // local-use NAT64
  '64:ff9b:1:ffff::808:808',
])('refuses the translation or compatibility address %s', (address) => {
  expect(isForbiddenAddress(address)).toBe(true);
});
