import { formatDateTime, isoDay } from '../domain/dates';
import { urn } from '../domain/urn';
import { DateTime } from 'luxon';
import { Harvest, HarvestCut, Unit } from './harvest';

/**
 * A harvest's record as its row keeps it, format 1 (the first: nothing older to read): the request's fields as
 * registered (codes with the names the client gave, days DD-MM-YYYY), its last day always written. The kind's own
 * type; the API answers it through the wire mapper (wire-mapper.ts), so either can change.
 */
export const HARVEST_FORMAT = 1;

export interface StoredHarvest extends Omit<RecordFields, 'dateEnd'> {
  id: string;
  dateEnd: string;
  dateCreated: string;
  dateModified: string;
  exported: '0' | '1';
}

/** The request's fields as the record keeps them: the registration body as the API accepted it. */
export interface RecordFields {
  type: 'AgriHarvest';
  dateStart: string;
  dateEnd?: string;
  idcp: string[];
  quantity: number;
  measure: MeasureField;
  product: Coded;
  purpose: Coded[];
  residue: Coded[];
  cut: HarvestCut;
  seedForSowing: boolean;
  plants: boolean;
  notHarvested: boolean;
  leftOnSoil: boolean;
  machine?: {
    type: 'HarvestMachine';
    id: string;
    name: string;
    power: number;
    powerMeasure: MeasureField;
    energy: Coded;
    passes: number;
    hours: number;
  };
  detail?: string;
}

interface Coded {
  type: string;
  id: string;
  name: string;
}

interface MeasureField {
  type: 'Measure';
  name: string;
  symbol: string;
  code: number;
}

/** An ISO day as the interface writes it, DD-MM-YYYY. */
const dmy = (iso: string) => iso.split('-').reverse().join('-');
const unitOf = (m: MeasureField): Unit => ({ code: m.code, symbol: m.symbol, name: m.name });
const measureOf = (u: Unit): MeasureField => ({ type: 'Measure', ...u });

/** A record's request fields (or a wire request's, which are the same) as the domain value. */
export function harvestOf(r: RecordFields): Harvest {
  const named = (prefix: string, list: Coded[]) => list.map((c) => [`${prefix}.${c.id}`, c.name] as const);
  return {
    start: isoDay(r.dateStart),
    end: isoDay(r.dateEnd ?? r.dateStart),
    idcp: r.idcp.map(Number),
    quantity: r.quantity,
    unit: unitOf(r.measure),
    product: Number(r.product.id),
    purposes: r.purpose.map((p) => Number(p.id)),
    residues: r.residue.map((p) => Number(p.id)),
    cut: r.cut,
    seedForSowing: r.seedForSowing,
    plants: r.plants,
    notHarvested: r.notHarvested,
    leftOnSoil: r.leftOnSoil,
    machine: r.machine
      ? {
          une: r.machine.id,
          name: r.machine.name,
          power: r.machine.power,
          powerUnit: unitOf(r.machine.powerMeasure),
          energy: Number(r.machine.energy.id),
          passes: r.machine.passes,
          hours: r.machine.hours,
        }
      : null,
    detail: r.detail ?? null,
    names: Object.fromEntries([
      ['product', r.product.name],
      ...named('purpose', r.purpose),
      ...named('residue', r.residue),
      ...(r.machine ? [['energy', r.machine.energy.name] as const] : []),
    ]),
  };
}

/** A harvest as its record's request fields: what `harvestOf` reads. */
export function recordFieldsOf(h: Harvest): RecordFields {
  const name = (key: string) => h.names[key] ?? '';
  const coded = (type: string, prefix: string) => (id: number) => ({
    type,
    id: String(id),
    name: name(`${prefix}.${id}`),
  });
  return {
    type: 'AgriHarvest',
    dateStart: dmy(h.start),
    ...(h.end !== h.start ? { dateEnd: dmy(h.end) } : {}),
    idcp: h.idcp.map(String),
    quantity: h.quantity,
    measure: measureOf(h.unit),
    product: { type: 'TypePlantProduct', id: String(h.product), name: name('product') },
    purpose: h.purposes.map(coded('TypeHarvestPurpose', 'purpose')),
    residue: h.residues.map(coded('TypeResidueDestination', 'residue')),
    cut: h.cut,
    seedForSowing: h.seedForSowing,
    plants: h.plants,
    notHarvested: h.notHarvested,
    leftOnSoil: h.leftOnSoil,
    ...(h.machine
      ? {
          machine: {
            type: 'HarvestMachine',
            id: h.machine.une,
            name: h.machine.name,
            power: h.machine.power,
            powerMeasure: measureOf(h.machine.powerUnit),
            energy: { type: 'TypeEnergy', id: String(h.machine.energy), name: name('energy') },
            passes: h.machine.passes,
            hours: h.machine.hours,
          },
        }
      : {}),
    ...(h.detail !== null ? { detail: h.detail } : {}),
  };
}

/**
 * The record the API answers and the export maps: the request as registered, its last day always written. As for the
 * other kinds, an amendment keeps the registration's dateCreated and sets dateModified (the records core).
 */
export function harvestRecord(input: {
  id: number;
  harvest: Harvest;
  exported: boolean;
  now: DateTime;
}): StoredHarvest {
  const request = recordFieldsOf(input.harvest);
  return {
    id: urn('AgriHarvest', input.id),
    ...request,
    dateEnd: request.dateEnd ?? request.dateStart,
    dateCreated: formatDateTime(input.now),
    dateModified: '',
    exported: input.exported ? '1' : '0',
  };
}
