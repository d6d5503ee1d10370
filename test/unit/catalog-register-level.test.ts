import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CropResolver, loadCropGroups } from '../../shared/catalog/crop-groups';
import { mapRegisterProduct, MapContext } from '../../shared/catalog/register/map-product';
import { rawProductSchema } from '../../shared/catalog/register/raw-schema';
import { levelFromRegister } from '../../shared/catalog/register/ropo-level';
import { loadRopoLevels } from '../../shared/catalog/ropo-levels';
import { checkApplication } from '../../shared/phyto/rules';
import { CARDS, ruleContext, WHEAT } from '../helpers/phyto-fixtures';
import { microthiol, officialCodes, phostoxin, RawProductInput, registerProduct, topik } from './catalog-fixtures';

/**
 * Finding 13: every imported product was stored as `basico`, so the card-level rule never applied to the register. The
 * level now comes from what the register says of the product, else from the operators' ropo-levels.json.
 */
const codes = officialCodes();
const ctx: MapContext = { codes, crops: new CropResolver(loadCropGroups(), codes), today: '20-10-2026' };
const raw = (p: RawProductInput, tweak: (r: Record<string, any>) => void = () => undefined) => {
  const r = registerProduct(p) as Record<string, any>;
  tweak(r);
  return r;
};
const level = (r: Record<string, any>) => levelFromRegister(rawProductSchema.parse(r));
/** MICROTHIOL as the real export writes it: TipoUsuario empty on every use, nothing about a card. */
const silent = (r: Record<string, any>) => r.USOS.forEach((u: Record<string, unknown>) => (u.TipoUsuario = ''));

describe('the card level a register product requires', () => {
  it('is fumigador for a gas-generating formulation (PHOSTOXIN PELLET, aluminium phosphide [GE])', () => {
    expect(level(raw(phostoxin()))).toEqual({
      level: 'fumigador',
      because: 'formulation GE (a gas or gas-generating product)',
    });
    expect(level(raw(microthiol(), (r) => (r.USOS[0].MetodoAplicacion = 'Fumigación')))).toMatchObject({
      level: 'fumigador',
    });
  });

  it('is the level the conditions of use name, most demanding first', () => {
    const said = (text: string) =>
      level(
        raw(microthiol(), (r) => {
          silent(r);
          r.DATOSPRODUCTO.Condicionamiento = text;
        }),
      )?.level;
    expect(said('Uso reservado a aplicadores profesionales con carné de nivel cualificado.')).toBe('cualificado');
    expect(said('Uso reservado a aplicadores con carné de fumigador.')).toBe('fumigador');
    expect(said('Tratamiento fungicida preventivo.')).toBeUndefined();
  });

  it('is cualificado for a product classified toxic or very toxic, wherever the export carries the classification', () => {
    const classified = (text: string) =>
      level(
        raw(microthiol(), (r) => {
          silent(r);
          r.DATOSPRODUCTO.Clasificacion = text;
        }),
      )?.level;
    expect(classified('Acute Tox. 2 (H330) Mortal en caso de inhalación')).toBe('cualificado');
    expect(classified('Muy tóxico')).toBe('cualificado');
    expect(classified('Eye Irrit. 2 (H319)')).toBeUndefined();
  });

  it('is basico for uses stated for professional users with nothing more demanding, and unknown when the register is silent', () => {
    expect(level(raw(topik()))).toEqual({ level: 'basico', because: 'uses for profesional users' });
    expect(level(raw(microthiol(), silent))).toBeUndefined();
  });
});

describe('the level stored by the register import', () => {
  it('comes from the register first, then from ropo-levels.json, else basico with the product reported', () => {
    const product = (r: Record<string, any>, c: MapContext = ctx) => mapRegisterProduct(r, c);
    const quiet = raw(microthiol(), silent);
    expect(product(quiet)).toMatchObject({ product: { requiredLevel: 'basico' }, level: { from: 'none' } });
    const mapped = { ...ctx, levels: { 'ES-11179': 'cualificado' as const } };
    expect(product(quiet, mapped)).toMatchObject({
      product: { requiredLevel: 'cualificado' },
      level: { from: 'mapping' },
    });
    const demanding = raw(microthiol(), (r) => (r.DATOSPRODUCTO.Condicionamiento = 'Carné de fumigador.'));
    expect(product(demanding, mapped)).toMatchObject({
      product: { requiredLevel: 'fumigador' },
      level: { from: 'register' },
    });
  });

  it('makes the card-level rule apply to register products: a basico card cannot apply a cualificado one', () => {
    const mapped = mapRegisterProduct(
      raw(
        topik(),
        (r) => (r.DATOSPRODUCTO.Condicionamiento = 'Uso reservado a aplicadores con carné de nivel cualificado.'),
      ),
      ctx,
    );
    const topikProduct = mapped.product!;
    expect(topikProduct.requiredLevel).toBe('cualificado');
    const by = (card: { nif: string; ropo: string }) =>
      checkApplication(
        ruleContext({
          products: [topikProduct],
          request: {
            subtype: { type: 'TypePhytosanitary', name: 'TOPIK 24 EC', code: topikProduct.code },
            dose: 0.18,
            measure: { type: 'Measure', name: 'Litros por hectárea', symbol: 'L/ha', code: 18 },
            idcp: [WHEAT],
            applicator: { user: { type: 'UserMetadata', nif: card.nif, ropo: card.ropo } },
          },
        }),
      ).violations.map((v) => v.code);
    expect(by(CARDS.basico)).toEqual(['ROPO_LEVEL_INSUFFICIENT']);
    expect(by(CARDS.cualificado)).toEqual([]);
  });
});

describe("the operators' ropo-levels.json", () => {
  it('ships valid, and another file is validated with every problem named', () => {
    expect(loadRopoLevels().levels).toEqual({});
    const dir = mkdtempSync(path.join(tmpdir(), 'ropo-levels-'));
    try {
      const file = path.join(dir, 'levels.json');
      writeFileSync(
        file,
        JSON.stringify({ levels: { 'ES-11179': 'fumigador', '11179': 'basico', 'ES-00064': 'experto' } }),
      );
      expect(() => loadRopoLevels(file)).toThrow(/levels\.11179: Invalid key.*levels\.ES-00064: Invalid option/s);
      writeFileSync(file, JSON.stringify({ levels: { 'ES-11179': 'fumigador' } }));
      expect(loadRopoLevels(file).levels).toEqual({ 'ES-11179': 'fumigador' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
