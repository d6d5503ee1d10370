import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CATALOGUES, catalogueNames, CatalogueName, parseCatalogue } from '../../shared/app/siex-catalogues';
import { SiexCode } from '../../shared/catalog/siex-codes/catalogues';
import { decodeCatalogue } from '../../shared/catalog/siex-codes/decode-catalogue';
import { SiexCodes } from '../../shared/catalog/siex-codes/siex-codes';
import { officialCataloguesDir } from '../../local/siex-data';
import { findProjectRoot } from '../../local/stack';
import { RawProductInput, registerProduct, registerUse as use } from '../../local/fixtures/register';

/**
 * Test material for the catalog tests: the official SIEX catalogues the project carries (data/siex/catalogues), and
 * register products in the official export format, with rows taken from the public snapshot of the register's uses
 * (MAPA register, 2026-08-14): real names, numbers, doses, units and their oddities. The snapshot has no registration
 * days; where none is known the row leaves Fecha_Registro empty, as some exports do.
 */
export const SIEX_DIR = officialCataloguesDir(findProjectRoot(__dirname));

let official: Partial<Record<CatalogueName, SiexCode[]>> | undefined;

export function officialCatalogues(): Partial<Record<CatalogueName, SiexCode[]>> {
  official ??= Object.fromEntries(
    catalogueNames.map((c) => [
      c,
      parseCatalogue(c, decodeCatalogue(readFileSync(path.join(SIEX_DIR, CATALOGUES[c].file)))).entries,
    ]),
  );
  return official;
}

export function officialCodes(): SiexCodes {
  return SiexCodes.from(officialCatalogues());
}

type Json = Record<string, unknown>;

export { RawProductInput, registerProduct, use };

/** MICROTHIOL SPECIAL DISPERSS: legacy number, "NO PROCEDE", crop groups, a range of applications, a repeated row. */
export const microthiol = (): RawProductInput => ({
  num: '11179',
  name: 'MICROTHIOL SPECIAL DISPERSS',
  holder: 'UPL IBERIA, S.A.',
  formulado: 'AZUFRE 80% [WG] P/P',
  registered: '1976/05/10',
  expires: '2027/07/31',
  composition: [['AZUFRE', 8.0e1, '%']],
  uses: [
    use('Vid', 'Oídio de la vid, Erysiphe necator', 0.25, 0.8, '%', 'NO PROCEDE', { Aplicaciones: '1-8' }),
    use('Vid', 'Ácaros eriófidos, Eriophyidae', 0.25, 0.8, '%', 'NO PROCEDE'),
    use('Vid', 'Ácaros eriófidos, Eriophyidae', 0.25, 0.8, '%', 'NO PROCEDE', { MetodoAplicacion: 'Espolvoreo' }),
    use('Frutales de pepita', 'Oídio del manzano, Podosphaera leucotricha', 0.25, 0.7, '%', 'NO PROCEDE'),
    use('Cereales de invierno / primavera', 'Oídio de los cereales, Blumeria graminis', 0.25, 0.6, '%', 'NO PROCEDE'),
    use('Olivo', 'Negrilla, fumagina, Capnodium elaeophilum', 0.25, 0.75, '%', 'NO PROCEDE', {
      Aplicaciones: '1-3',
      IntervaloAplicaciones: '7-10',
    }),
    use('Judía forrajera', 'Erysiphe spp.', 0.25, 0.75, '%', 'NO PROCEDE'),
  ],
});

/** ETIFIX: a growth regulator, g/Hl, a safety period written as two figures with conditions. */
export const etifix = (): RawProductInput => ({
  num: '17705',
  name: 'ETIFIX',
  holder: 'NUFARM ESPAÑA S.A.',
  formulado: 'ANA 1% [SP] P/P',
  registered: '1988/02/01',
  expires: '2029/11/30',
  composition: [['1-NAFTILACÉTICO', 1, '%']],
  uses: [
    use('Manzano', 'Aclareo frutos', 100, 150, 'g/Hl', '90 (ACLAREO DE FRUTOS)7 (EVITAR CAÍDA DE FRUTOS)', {
      Aplicaciones: 1,
    }),
    use('Peral', 'Inhibición caída de frutos', 200, 200, 'g/Hl', '7'),
  ],
});

/** CABRIO WG: an ES- number, Kg/ha, a dose given as 0 to max, a single dose given as min with max 0. */
export const cabrio = (): RawProductInput => ({
  num: 'ES-00065',
  name: 'CABRIO WG',
  holder: 'BASF Agricultural Solutions Spain S.L.U.',
  formulado: 'PIRACLOSTROBIN 20% [WG] P/P',
  registered: '2011-06-15T00:00:00',
  expires: '2026/09/15',
  composition: [['PIRACLOSTROBIN', 20, '%']],
  uses: [
    use('Olivo de almazara', 'Repilo del olivo, Venturia oleaginea', 0.5, 0.5, 'Kg/ha', '105'),
    use('Maíz', 'Roya común del maíz, Puccinia sorghi', 0.0, 1.0, 'Kg/ha', 'NO PROCEDE'),
    use('Tomate', 'Mildiu de la patata y el tomate, Phytophthora infestans', 0.0, 0.5, 'Kg/ha', '3'),
    use('Cítricos', 'Alternaria spp.', 1.125, 0.0, 'Kg/ha', '14'),
  ],
});

/** PENSHAR 40% SC: a herbicide; "NP"; a unit SIEX does not have (ml/planta); l/hl, which is a percentage. */
export const penshar = (): RawProductInput => ({
  num: 'ES-00064',
  name: 'PENSHAR 40% SC',
  holder: 'SHARDA EUROPE BVBA',
  formulado: 'PENDIMETALINA 40% [SC] P/V',
  registered: '2011-05-20T00:00:00',
  expires: '2027/01/15',
  composition: [['PENDIMETALINA', 40, '%']],
  uses: [
    use('Lechuga', 'Dicotiledóneas anuales', 2.5, 4.0, 'l/ha', '75'),
    use('Judía verde', 'Monocotiledóneas anuales', 3.0, 5.0, 'l/ha', 'NP'),
    use('Tabaco', 'Inhibición de brotes axilares en tabaco', 20.0, 0.0, 'ml/planta', 'NP'),
    use('Frutales de cáscara', 'Malas hierbas anuales de los frutales', 0.3, 0.5, 'l/hl', 'NP'),
  ],
});

/** FAMOLINS 80%: sulphur dust on the vine, authorised against a pest group, "Ácaros" (PLAGAS 2, hierarchy 6.1). */
export const famolins = (): RawProductInput => ({
  num: '19534',
  name: 'FAMOLINS 80%',
  holder: 'JULIO CABRERO Y CIA, S.L.',
  formulado: 'AZUFRE 80% [DP] P/P',
  registered: '1997/01/22',
  expires: '2027/07/31',
  composition: [['AZUFRE', 80, '%']],
  uses: [
    use('Vid', 'Ácaros', 20.0, 30.0, 'Kg/ha', '1'),
    use('Vid', 'Oídio de la vid, Erysiphe necator', 20.0, 30.0, 'Kg/ha', '1', { CodigoAgente: '8.30.2.6' }),
  ],
});

/** TOPIK 24 EC: the register writes its doses in cc/ha, a unit SIEX has no code for. */
export const topik = (): RawProductInput => ({
  num: '19548',
  name: 'TOPIK 24 EC',
  holder: 'ADAMA Agriculture España S.A.',
  formulado: 'CLODINAFOP-PROPARGIL 24% [EC] P/V',
  registered: '1997/02/26',
  expires: '2027/07/31',
  composition: [['CLODINAFOP-PROPARGIL', 24, '%']],
  uses: [
    use('Trigo', 'Avenas locas, Avena spp.', 170.0, 200.0, 'cc/ha', 'NP'),
    use('Trigo', 'Cola de zorro, Alopecurus myosuroides', 200.0, 250.0, 'cc/ha', 'NP'),
    use('Triticale', 'Avenas locas, Avena spp.', 170.0, 200.0, 'cc/ha', 'NP'),
  ],
});

/** CheckMate CRS: pheromone diffusers counted per hectare (SIEX unit 22, Difusores/ha), written "difusores/ha". */
export const checkmate = (): RawProductInput => ({
  num: 'ES-01406',
  name: 'CheckMate CRS',
  holder: 'SUTERRA EUROPE BIOCONTROL S.L.',
  formulado: 'RESCALURE 5,86% (70 mg de s.a./difusor) [VP] P/P',
  expires: '2026/12/18',
  composition: [['RESCALURE', 70, 'mg/difusor']],
  uses: [use('Cítricos', 'Piojo rojo de California, Aonidiella aurantii', 450.0, 450.0, 'difusores/ha', 'NO PROCEDE')],
});

/** BORDONEX: the same dose written per hectare (3.75-5 Kg/ha) and per square metre (0.375-0.5 g/m2, SIEX unit 80). */
export const bordonex = (): RawProductInput => ({
  num: 'ES-01414',
  name: 'BORDONEX',
  holder: 'INDUSTRIAS QUIMICAS DEL VALLES, S.A.',
  formulado: 'SULFATO CUPROCALCICO 20% (EXPR. EN CU) [WP] P/P',
  expires: '2033/07/31',
  composition: [['SULFATO CUPROCALCICO', 20, '% (EXPR. EN CU)']],
  uses: [
    use('Olivo de almazara', 'Repilo del olivo, Venturia oleaginea', 3.75, 5.0, 'Kg/ha', '14'),
    use('Olivo de almazara', 'Repilo del olivo, Venturia oleaginea', 0.375, 0.5, 'g/m2', '14'),
  ],
});

/** FLYPACK® Dacus: traps per hectare written in the singular, "Trampa/ha" (SIEX: 24 Trampas/ha). */
export const flypack = (): RawProductInput => ({
  num: 'ES-01409',
  name: 'FLYPACK® Dacus',
  holder: 'SEDQ Healthy Crops, S.L.',
  formulado: 'DELTAMETRIN 0,015g/trampa [RB] P/P',
  expires: '2028/06/30',
  composition: [['DELTAMETRIN', 0.015, 'g/trampa']],
  uses: [use('Olivo', 'Mosca del olivo, Bactrocera oleae', 5.0, 100.0, 'Trampa/ha', 'NO PROCEDE')],
});

/** PHOSTOXIN PELLET: aluminium phosphide, a gas-generating formulation [GE]; the register gives its doses by note. */
export const phostoxin = (): RawProductInput => ({
  num: '13115',
  name: 'PHOSTOXIN PELLET',
  holder: 'DETIA FREYBERG GMBH',
  formulado: 'FOSFURO DE ALUMINIO 56% [GE] P/P',
  expires: '2026/11/30',
  composition: [['FOSFURO DE ALUMINIO', 1, 'g/pieza']],
  uses: [use('Granos de cereales', 'Insectos de almacén', 0.0, 0.0, '(ver condic. específico)', 'NP')],
});

/** AZUFRE LIQUIDO 800 G/L as a cancelled product: cancellation day, and a sale deadline after it. */
export const azufreCancelled = (): RawProductInput => ({
  num: '24138',
  name: 'AZUFRE LIQUIDO 800 G/L',
  holder: 'AFEPASA GLOBAL, S.A.U.',
  formulado: 'AZUFRE 80% [SC] P/V',
  estado: 'Cancelado',
  registered: '2004/03/01',
  expires: '2027/07/31',
  cancelled: '2026/03/01',
  saleEnd: '2026/09/01',
  composition: [['AZUFRE', 80, '%']],
  uses: [use('Vid', 'Oídio de la vid, Erysiphe necator', 4.0, 4.0, 'l/ha', 'NO PROCEDE')],
});

export function registerDocument(products: RawProductInput[]): Json {
  return { Productos: products.map(registerProduct) };
}

/** Writes a register export file: plain, or as the ministry's download serves it (double-serialized envelope). */
export function writeRegister(file: string, products: RawProductInput[], form: 'plain' | 'envelope' = 'plain'): void {
  const document = JSON.stringify(registerDocument(products));
  const text =
    form === 'plain'
      ? document
      : JSON.stringify(JSON.stringify({ Id: 1, Tipo: 'CEX', Contenido: document, Fecha: '2026-10-02T00:00:00' }));
  writeFileSync(file, text, 'utf8');
}
