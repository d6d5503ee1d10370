import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings } from '../../shared/config/config';
import { certificateExpiryReport, certificateReportLevel } from '../../shared/siex/certificate-expiry';

/** The daily report of the SIEX client certificate's expiry, on certificates openssl makes, as PEM and as PFX. */
let dir: string;
let pem: string;
let pfxBase64: string;
let notAfter: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'siex-cert-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'c.key',
    '-out',
    'c.crt',
    '-days',
    '20',
    '-subj',
    '/CN=siex-client',
  );
  openssl('pkcs12', '-export', '-in', 'c.crt', '-inkey', 'c.key', '-out', 'c.pfx', '-passout', 'pass:');
  pem = readFileSync(join(dir, 'c.crt'), 'utf8') + readFileSync(join(dir, 'c.key'), 'utf8');
  pfxBase64 = readFileSync(join(dir, 'c.pfx')).toString('base64');
  const end = openssl('x509', '-in', 'c.crt', '-noout', '-enddate').toString().trim().replace('notAfter=', '');
  notAfter = Date.parse(end);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settings = (cert: string | undefined) =>
  parseSettings({ AzureWebJobsStorage: 'UseDevelopmentStorage=true', ...(cert ? { SIEX_CLIENT_CERT: cert } : {}) });

describe('the SIEX client certificate expiry report', () => {
  it('says when a PFX or PEM certificate expires and how many whole days are left', () => {
    const now = notAfter - 19.5 * 86_400_000;
    const expected = { notAfter: new Date(notAfter).toISOString(), daysLeft: 19 };
    expect(certificateExpiryReport(settings(pfxBase64), now)).toEqual(expected);
    expect(certificateExpiryReport(settings(pem), now)).toEqual(expected);
  });

  it('counts an expired certificate in negative days', () => {
    expect(certificateExpiryReport(settings(pfxBase64), notAfter + 2 * 86_400_000)).toMatchObject({ daysLeft: -2 });
  });

  it('reports nothing without a certificate or with an unresolved Key Vault reference', () => {
    expect(certificateExpiryReport(settings(undefined), notAfter)).toBeUndefined();
    const reference = '@Microsoft.KeyVault(VaultName=kv;SecretName=siex-client-cert)';
    expect(certificateExpiryReport(settings(reference), notAfter)).toBeUndefined();
  });

  it('says a certificate cannot be read', () => {
    const report = certificateExpiryReport(settings('bm90IGEgY2VydGlmaWNhdGU='), notAfter);
    expect(report?.unreadable).toEqual(expect.any(String));
    expect(report?.daysLeft).toBeUndefined();
  });

  it('is a warning from 30 days before expiry, and when unreadable', () => {
    expect(certificateReportLevel({ notAfter: '2027-01-01T00:00:00.000Z', daysLeft: 30 })).toBe('info');
    expect(certificateReportLevel({ notAfter: '2027-01-01T00:00:00.000Z', daysLeft: 29 })).toBe('warn');
    expect(certificateReportLevel({ unreadable: 'not a certificate' })).toBe('warn');
  });
});
