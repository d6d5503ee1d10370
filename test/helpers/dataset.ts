import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import { ZONE } from '../../shared/domain/dates';
import { ClientRegistration } from '../../shared/clients/client-registration';
import { Farm } from '../../shared/farms/farm';
import { EnclosureSpec, client, enclosure as fixtureEnclosure } from '../../local/fixtures/dataset';

export { dataset } from '../../local/fixtures/dataset';

/**
 * The tests' back-office datasets, from the shared fixture builder (local/fixtures/dataset.ts). Every test file shares one Azurite (and one gateway), so
 * REA codes, client ids and keys carry a random suffix: no two files (or runs against persistent storage) collide.
 */
export function suffix(bytes = 5): string {
  return randomBytes(bytes).toString('hex');
}

const NOW = DateTime.now().setZone(ZONE);

/**
 * The instant tests that use the real clock date their applications from: now, except in the first two weeks of
 * January, when it is noon on the last day of the previous year. An application belongs to the campaign of its
 * date, so "six days before" must not cross New Year; the test stack allows 30 days of back-dating (its
 * MAX_BACKDATE_DAYS) so that dates before this anchor stay registrable then. Nothing in the tests breaks on 1 January.
 */
export const ANCHOR =
  NOW.ordinal > 14
    ? NOW
    : NOW.minus({ years: 1 }).endOf('year').set({ hour: 12, minute: 0, second: 0, millisecond: 0 });

/** The campaign year of test farms: the anchor's, from the clock. */
export const CAMPAIGN = ANCHOR.year;

/** The back-dating the test stack allows (see ANCHOR). */
export const TEST_MAX_BACKDATE_DAYS = 30;

/** A REA code (letters and digits) unique to this run. */
export function uniqueRea(): string {
  return `T${suffix(6)}`;
}

/** A secret of 48 characters, well over the 32 the dataset requires. */
function secret(label: string): string {
  return `${label}-${randomBytes(24).toString('hex')}`.slice(0, 64);
}

export function testClient(
  label: string,
  farms: string[],
  overrides: Partial<ClientRegistration> = {},
): ClientRegistration {
  return {
    ...client({
      id: `t-${label}-${suffix()}`,
      name: `Test client ${label}`,
      email: `${label}@erp.example`,
      sidKey: secret('sid'),
      apiKey: secret('api'),
      farms,
    }),
    ...overrides,
  };
}

/** An enclosure in Requena, in the tests' positional form. */
export function enclosure(pol: number, parc: number, enc: number, prov = '46', dimension = '1.25'): EnclosureSpec {
  return fixtureEnclosure(pol, parc, enc, { prov, dimension });
}

/**
 * A farm with two crops: a vine (typecrop 102, variety 1001) on two parcels with three enclosures, and an olive
 * grove (typecrop 101, variety 2001) on one parcel whose enclosure is also one of the vine's (same land, other crop).
 */
export function testFarm(rea: string, overrides: Partial<Farm> = {}): Farm {
  return {
    rea,
    year: CAMPAIGN,
    name: `Finca ${rea}`,
    description: 'Viña y olivar de prueba',
    locality: 'Requena',
    country: 'ES',
    province: 'Valencia',
    community: { code: '10', name: 'Comunitat Valenciana' },
    owner: { name: 'Luis', surname: 'García Sanz', email: 'luis@example.org', nif: '71234567W' },
    sustainableInputs: true,
    crops: [
      {
        typecrop: { id: '102', name: 'VIÑA' },
        code: 1001,
        name: 'TEMPRANILLO',
        parcels: [
          { name: 'La Hoya', sigpac: [enclosure(12, 45, 1, '46', '2.35'), enclosure(12, 45, 2, '46', '1.10')] },
          { name: 'El Pinar', sigpac: [enclosure(14, 7, 1, '46', '3.80')] },
        ],
      },
      {
        typecrop: { id: '101', name: 'OLIVO' },
        code: 2001,
        name: 'BLANQUETA',
        parcels: [{ name: 'Los Olivos', sigpac: [enclosure(12, 45, 1, '46', '2.35')] }],
      },
    ],
    ...overrides,
  };
}
