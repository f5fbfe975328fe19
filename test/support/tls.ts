// A test CA and certificates for the HTTPS callback servers, made with openssl once per run:
// `ca.pem` is trusted by the hub process through NODE_EXTRA_CA_CERTS; `untrusted-*` is a
// self-signed certificate nobody trusts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-site.ts';

export interface TlsFiles {
  caFile: string;
  trusted: { key: Buffer; cert: Buffer };
  untrusted: { key: Buffer; cert: Buffer };
}

const DIR = path.join(ROOT, 'test-results', 'tls');

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: DIR, stdio: 'pipe' });
}

export function ensureTestCertificates(): TlsFiles {
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(path.join(DIR, 'untrusted-cert.pem'))) {
    const san = 'subjectAltName=DNS:localhost,IP:127.0.0.1';
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca-key.pem',
      '-out',
      'ca.pem',
      '-days',
      '30',
      '-subj',
      '/CN=Reviews Test CA',
    );
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server-key.pem',
      '-out',
      'server.csr',
      '-subj',
      '/CN=localhost',
    );
    writeFileSync(path.join(DIR, 'ext.cnf'), `${san}\n`);
    openssl(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-out',
      'server-cert.pem',
      '-days',
      '30',
      '-extfile',
      'ext.cnf',
    );
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'untrusted-key.pem',
      '-out',
      'untrusted-cert.pem',
      '-days',
      '30',
      '-subj',
      '/CN=localhost',
      '-addext',
      san,
    );
  }
  const read = (name: string) => readFileSync(path.join(DIR, name));
  return {
    caFile: path.join(DIR, 'ca.pem'),
    trusted: { key: read('server-key.pem'), cert: read('server-cert.pem') },
    untrusted: { key: read('untrusted-key.pem'), cert: read('untrusted-cert.pem') },
  };
}
