import { farmSchema } from '../../shared/api/farm-schemas';
import { validateDataset } from '../../shared/backoffice/dataset-validation';
import { buildFarmIndex } from '../../shared/backoffice/farm-index-builder';
import { Farm } from '../../shared/farms/farm';
import { renderFarmView } from '../../shared/farms/farm-view';
import { testFarm } from '../helpers/dataset';
import { checkFarmShape, ShapeError } from '../helpers/spec-shapes';

async function render(farm: Farm) {
  let n = 0;
  const index = await buildFarmIndex(farm, null, '01-03-2026 10:00:00', async () => ++n);
  // through JSON, as the farm lookup serves it
  return { index, view: JSON.parse(JSON.stringify([renderFarmView(farm, index)]))[0] };
}

function validFarm(rea = '46000000001'): Farm {
  const r = validateDataset({ farms: [testFarm(rea)] });
  if (!r.dataset) throw new Error(JSON.stringify(r.problems));
  return r.dataset.farms[0];
}

describe('renderFarmView (farm lookup response)', () => {
  it('has exactly the spec fields with the spec types', async () => {
    const { view } = await render(validFarm());
    expect(() => checkFarmShape(view)).not.toThrow();
    expect(farmSchema.safeParse(view).success).toBe(true);
  });

  it('writes the spec types where the dataset could tempt otherwise', async () => {
    const { view } = await render(validFarm());
    expect(view.year).toBe(2026);
    expect(view.agriCrop[0].crop.code).toBe(1001);
    expect(typeof view.agriCrop[0].agriParcel[0].sigpac[0].idcp).toBe('number');
    expect(view.agriCrop[0].agriParcel[0].sigpac[0].dimension).toBe('2.35');
    expect(view.agriCrop[0].agriParcel[0].sigpac[0].prov).toBe('46');
    expect(view.agriCrop[0].crop.typecrop.id).toBe('102');
  });

  it('carries the farm, owner, crops, parcels, enclosures and regional attributes of the dataset', async () => {
    const { view, index } = await render(validFarm());
    const e = (idcp: number, pol: string, parc: string, enc: string, dimension: string) => ({
      idcp,
      prov: '46',
      town: '213',
      aggr: '0',
      zone: '0',
      pol,
      parc,
      enc,
      dimension,
    });
    const idcpOf = (crop: number, code: string) =>
      index.idcps.find((x) => x.crop === crop && `${x.pol}-${x.parc}-${x.enc}` === code)!.idcp;
    expect(view).toEqual({
      id: `urn:ngsi-ld:AgriFarm:${index.meta.farmId}`,
      name: 'Finca 46000000001',
      description: 'Viña y olivar de prueba',
      year: 2026,
      dateCreated: '01-03-2026 10:00:00',
      address: { addressLocality: 'Requena', addressCountry: 'ES' },
      owned: { name: 'Luis', surname: 'García Sanz', email: 'luis@example.org', nif: '71234567W' },
      agriCrop: [
        {
          id: `urn:ngsi-ld:AgriCrop:${index.crops[0].cropId}`,
          crop: {
            type: 'TypeCropVariety',
            typecrop: { type: 'TypeCrop', id: '102', name: 'VIÑA' },
            code: 1001,
            name: 'TEMPRANILLO',
          },
          agriParcel: [
            {
              id: `urn:ngsi-ld:AgriParcel:${index.idcps[0].parcelId}`,
              name: 'La Hoya',
              sigpac: [
                e(idcpOf(0, '12-45-1'), '12', '45', '1', '2.35'),
                e(idcpOf(0, '12-45-2'), '12', '45', '2', '1.10'),
              ],
            },
            {
              id: `urn:ngsi-ld:AgriParcel:${index.idcps[2].parcelId}`,
              name: 'El Pinar',
              sigpac: [e(idcpOf(0, '14-7-1'), '14', '7', '1', '3.80')],
            },
          ],
        },
        {
          id: `urn:ngsi-ld:AgriCrop:${index.crops[1].cropId}`,
          crop: {
            type: 'TypeCropVariety',
            typecrop: { type: 'TypeCrop', id: '101', name: 'OLIVO' },
            code: 2001,
            name: 'BLANQUETA',
          },
          agriParcel: [
            {
              id: `urn:ngsi-ld:AgriParcel:${index.idcps[3].parcelId}`,
              name: 'Los Olivos',
              sigpac: [e(idcpOf(1, '12-45-1'), '12', '45', '1', '2.35')],
            },
          ],
        },
      ],
      regionalAttributes: [
        { rea: '46000000001', address: { province: 'Valencia', community: { name: 'Comunitat Valenciana' } } },
      ],
    });
    // the same enclosure under two crops has two idcp values
    expect(idcpOf(0, '12-45-1')).not.toBe(idcpOf(1, '12-45-1'));
  });

  it('fills the optional dataset fields with empty strings (still strings, as the spec types them)', async () => {
    const r = validateDataset({
      farms: [
        { rea: 'R2', year: 2026, name: 'Minimal', community: { code: '10', name: 'Comunitat Valenciana' }, owner: {} },
      ],
    });
    const { view } = await render(r.dataset!.farms[0]);
    expect(() => checkFarmShape(view)).not.toThrow();
    expect(view).toMatchObject({
      description: '',
      address: { addressLocality: '', addressCountry: 'ES' },
      owned: { name: '', surname: '', email: '', nif: '' },
      agriCrop: [],
      regionalAttributes: [{ rea: 'R2', address: { province: '', community: { name: 'Comunitat Valenciana' } } }],
    });
  });

  it('never leaks back-office-only fields (codigoRea, community code, dgc) into the response', async () => {
    const farm = validFarm();
    farm.codigoRea = 'ES460000000001';
    farm.crops[0].parcels[0].sigpac[0].dgc = '123456';
    const { view } = await render(farm);
    const text = JSON.stringify(view);
    expect(text).not.toContain('ES460000000001');
    expect(text).not.toContain('dgc');
    expect(text).not.toContain('"code":"10"');
  });
});

describe('checkFarmShape (the test oracle itself)', () => {
  it('catches a wrong type, a missing field and an extra field', async () => {
    const { view } = await render(validFarm());
    const mutate = (f: (v: any) => void) => {
      const copy = structuredClone(view);
      f(copy);
      return () => checkFarmShape(copy);
    };
    expect(mutate((v) => (v.year = '2026'))).toThrow(ShapeError);
    expect(mutate((v) => (v.agriCrop[0].crop.code = '1001'))).toThrow(/crop\.code/);
    expect(mutate((v) => (v.agriCrop[0].agriParcel[0].sigpac[0].idcp = '7'))).toThrow(/sigpac\[0\]\.idcp/);
    expect(mutate((v) => (v.agriCrop[0].agriParcel[0].sigpac[0].dimension = 2.35))).toThrow(/dimension/);
    expect(mutate((v) => (v.agriCrop[0].crop.type = 'TypeCrop'))).toThrow(/constant/);
    expect(mutate((v) => delete v.regionalAttributes[0].address.community)).toThrow(/keys/);
    expect(mutate((v) => (v.owned.phone = '600'))).toThrow(/keys/);
    expect(mutate((v) => (v.year = 2026.5))).toThrow(/integer/);
  });
});
