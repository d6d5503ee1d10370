import { farmSchema } from '../../shared/farms/farm';
import { farmOfHolding } from '../../shared/register/rea-farm';
import { HoldingResponse } from '../../shared/siex/iuws-protocol';
import { HOLDING } from '../integration/iuws-fixtures';

/** Issue 38, item 10: a holding of SIEX's REA (the simulator's exportarREA shape) as a farm of the back-office dataset. */
type Recinto = HoldingResponse['UnidadesProduccion'][number]['Recintos'][number];
/** The fixtures' enclosure (without its DGC) as enclosure `Recinto`, with `more`. */
const enclosure = (Recinto: number, more: Partial<Recinto> = {}): Recinto => {
  const { CodigoDGC: _, ...plain } = HOLDING.UnidadesProduccion[0].Recintos[0];
  return { ...plain, Recinto, ...more };
};
const vine = { Cultivo: { Codigo: '102', Nombre: 'VIÑA' }, Variedad: { Codigo: 1001, Nombre: 'TEMPRANILLO' } };
const holding: HoldingResponse = {
  ...HOLDING,
  CodigoRea: 'ES460000000001',
  Campana: 2027,
  Nombre: 'Finca El Olivar',
  Titular: { NIF: '87654321X', Nombre: 'Luis', Apellidos: 'García', Email: 'luis@example.org' },
  UnidadesProduccion: [
    {
      ...vine,
      NombreParcela: 'La Hoya',
      Recintos: [enclosure(1, { CodigoDGC: 4600000000101, SuperficieCultivo: 1.204 })],
    },
    {
      Cultivo: { Codigo: '103', Nombre: 'OLIVAR' },
      Variedad: { Codigo: 2001, Nombre: 'BLANQUETA' },
      NombreParcela: 'El Alto',
      Recintos: [enclosure(3, { Superficie: 0.00005, ZonaVulnerable: true })],
    },
    { ...vine, NombreParcela: 'El Pinar', Recintos: [enclosure(2, { Superficie: 10 })] },
  ],
};

describe('farmOfHolding', () => {
  it('writes the holding as a dataset farm the importer takes: one crop per crop and variety, a parcel per unit', () => {
    const farm = farmOfHolding(holding, '46000000001');
    expect(farmSchema.parse(farm)).toEqual(farm);
    expect(farm).toMatchObject({
      rea: '46000000001',
      codigoRea: 'ES460000000001',
      year: 2027,
      name: 'Finca El Olivar',
      description: '',
      locality: 'Requena',
      country: 'ES',
      province: 'Valencia',
      community: { code: '10', name: 'Comunitat Valenciana' },
      owner: { name: 'Luis', surname: 'García', email: 'luis@example.org', nif: '87654321X' },
    });
    expect(farm).not.toHaveProperty('sustainableInputs');
    expect(farm.crops.map((c) => [c.typecrop.id, c.code, c.name, c.parcels.map((p) => p.name)])).toEqual([
      ['102', 1001, 'TEMPRANILLO', ['La Hoya', 'El Pinar']],
      ['103', 2001, 'BLANQUETA', ['El Alto']],
    ]);
    const [[hoya, pinar], [alto]] = farm.crops.map((c) => c.parcels.map((p) => p.sigpac[0]));
    expect(hoya).toEqual({
      prov: '46',
      town: '213',
      aggr: '0',
      zone: '0',
      pol: '12',
      parc: '45',
      enc: '1',
      dimension: '2.35',
      cropArea: '1.2',
      dgc: '4600000000101',
    });
    // Hectares in plain decimals, never an exponent; 10 ha as "10".
    expect([pinar?.dimension, alto?.dimension, alto?.nitrateVulnerable]).toEqual(['10', '0.0001', true]);
  });

  it('keeps what the REA does not say from the farm campaign already loaded', () => {
    const farm = farmOfHolding(holding, 'ES460000000001', { description: 'Viña y olivar', sustainableInputs: false });
    expect([farm.description, farm.sustainableInputs]).toEqual(['Viña y olivar', false]);
  });
});
