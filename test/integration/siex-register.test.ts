import { parseSettings } from '../../shared/config/config';
import { createIuwsClient, IuwsError } from '../../shared/siex/iuws-client';
import { createIuwsRegister } from '../../shared/siex/iuws-register';
import { cueDocument, cosecha, HOLDING, schemaSections, simulatorForFile, tratamFito } from './iuws-fixtures';

/**
 * Issue 38, item 10: the reads of what SIEX holds (exportar, exportarREA) against the SIEX simulator over real HTTP,
 * through the same session and retries as the submissions.
 */
const { url, control } = simulatorForFile(0);
const settings = (extra: Record<string, string> = {}) =>
  parseSettings({
    AzureWebJobsStorage: 'UseDevelopmentStorage=true',
    SIEX_BASE_URL: url(),
    SIEX_USERNAME: 'siex-local',
    SIEX_PASSWORD: 'siex-local',
    SIEX_TIMEOUT_MS: '2000',
    SIEX_MAX_ATTEMPTS: '3',
    SIEX_RETRY_BASE_MS: '10',
    ...extra,
  });
const register = () => createIuwsRegister(settings(), schemaSections());
const REA = HOLDING.CodigoRea;

describe('exportar: the notebook SIEX holds', () => {
  it("answers the campaign's blocks of every section, those sent and those another notebook entered", async () => {
    const id = await createIuwsClient(settings(), schemaSections()).submit(
      cueDocument([tratamFito(7), tratamFito(8, { FechaInicio: '03/03/2024', FechaFin: '03/03/2024' })], {
        IdCuaderno: 1,
      }),
      'k-1',
    );
    expect(id).toMatch(/^SIM-/);
    await control().seedEntry({ codigoRea: REA, section: 'Cosecha', block: cosecha(40), notebook: 77 });
    await control().seedEntry({ codigoRea: 'ES999999999999', section: 'Cosecha', block: cosecha(41) });

    const entries = await register().notebook(REA, 2025);
    expect(entries.map((e) => [e.section, e.idAjena, e.notebook])).toEqual([
      ['Cosecha', 40, '77'],
      ['TratamFito', 7, '1'],
    ]);
    expect(entries[0].block).toEqual(cosecha(40));
    expect((await register().notebook(REA, 2024)).map((e) => e.idAjena)).toEqual([8]);

    await control().forgetEntry('TratamFito', 7);
    expect((await register().notebook(REA, 2025)).map((e) => e.idAjena)).toEqual([40]);
  });

  it('is retried through an outage, as every IUWS call, and fails as an IuwsError when SIEX stays down', async () => {
    await control().set({ failNext: 1 });
    expect(await register().notebook(REA, 2025)).toEqual([]);
    await control().set({ outage: true });
    const e = await register()
      .notebook(REA, 2025)
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IuwsError);
    expect((e as IuwsError).code).toBe('SIEX_UNAVAILABLE');
  });

  it('refuses a seeded block of a section the schema lacks, or without its IdAjena', async () => {
    await expect(control().seedEntry({ codigoRea: REA, section: 'Nada', block: { IdAjenaNada: 1 } })).rejects.toThrow(
      /400.*no section Nada/,
    );
    await expect(
      control().seedEntry({ codigoRea: REA, section: 'Cosecha', block: { FechaInicio: '01/01/2025' } }),
    ).rejects.toThrow(/400.*IdAjenaCosecha/);
  });
});

describe('exportarREA: the holding as the REA knows it', () => {
  it('answers the holding seeded for the campaign, and null for another campaign or holding', async () => {
    await control().seedHolding(HOLDING);
    expect(await register().holding(REA, 2025)).toEqual(HOLDING);
    expect(await register().holding(REA, 2026)).toBeNull();
    expect(await register().holding('ES999999999999', 2025)).toBeNull();
  });

  it('needs a token: a client with credentials SIEX refuses gets SIEX_AUTH', async () => {
    const refused = createIuwsRegister(settings({ SIEX_PASSWORD: 'wrong' }), []);
    await expect(refused.holding(REA, 2025)).rejects.toMatchObject({ code: 'SIEX_AUTH' });
  });
});
