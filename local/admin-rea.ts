import { DateTime } from 'luxon';
import { importDataset } from '../shared/backoffice/import';
import { validateDataset } from '../shared/backoffice/dataset-validation';
import { parseSettings } from '../shared/config/config';
import { ZONE } from '../shared/domain/dates';
import { Farm } from '../shared/farms/farm';
import { cropKey, FarmIndexDoc } from '../shared/farms/farm-index';
import { FarmStore } from '../shared/farms/farm-store';
import { sigpacCode } from '../shared/farms/sigpac';
import { farmOfHolding, KeptFarmFields } from '../shared/register/rea-farm';
import { createIuwsRegister } from '../shared/siex/iuws-register';
import { TableStore } from '../shared/store/tables';

/**
 * `npm run admin -- import-rea <codigoRea> [--campaign YYYY] [--rea REA]`: onboarding and the campaign rollover from
 * SIEX. It reads the holding from the REA (IUWS `exportarREA`, at SIEX_BASE_URL with SIEX_USERNAME / SIEX_PASSWORD,
 * in the simulator's shape until FEGA publishes one) and writes it as a farm of the back-office dataset, straight into
 * storage through the dataset import (validated first, idempotent), as `import FILE` does: no file to hand-write or
 * load. What the REA does not say (the description, sustainable input management) is kept from the farm campaign
 * already loaded.
 */

export interface ImportReaOptions {
  campaign?: string;
  /** The gateway's REA of the farm (what clients' `farms` list); default the REA code itself. */
  rea?: string;
}

/** The farm's crop locations, by crop and enclosure: what a re-import adds and removes. */
const locationsOfFarm = (farm: Farm) =>
  new Set(
    farm.crops.flatMap((c) =>
      c.parcels.flatMap((p) => p.sigpac.map((s) => `${cropKey(c.typecrop.id, c.code)} ${sigpacCode(s)}`)),
    ),
  );
const locationsOfIndex = (index: FarmIndexDoc) =>
  new Set(
    index.idcps.map((e) => `${cropKey(index.crops[e.crop]!.typecropId, index.crops[e.crop]!.code)} ${sigpacCode(e)}`),
  );

/** What the farm campaign loaded now keeps across a re-import, and its crop locations; nothing for a new one. */
async function loaded(farms: FarmStore, rea: string, year: number) {
  const info = await farms.lookupInfo(rea, year);
  const doc = info && (await farms.readIndex(info.farmId));
  if (!doc) return { kept: {}, locations: new Set<string>() };
  const view = JSON.parse((await farms.lookupView(rea, year)) ?? '[]') as { description?: string }[];
  const kept: KeptFarmFields = {
    ...(view[0]?.description !== undefined ? { description: view[0].description } : {}),
    ...(doc.index.meta.sustainableInputs !== undefined ? { sustainableInputs: doc.index.meta.sustainableInputs } : {}),
  };
  return { kept, locations: locationsOfIndex(doc.index) };
}

/** Exit code 0 once the farm is loaded (or already was), 1 when SIEX has no such holding or its data is refused. */
export async function importReaCommand(codigoRea: string, options: ImportReaOptions): Promise<number> {
  if (options.campaign !== undefined && !/^\d{4}$/.test(options.campaign)) {
    console.error(`--campaign ${options.campaign}: a year, YYYY`);
    return 2;
  }
  const campaign = options.campaign ? Number(options.campaign) : DateTime.now().setZone(ZONE).year;
  const settings = parseSettings(process.env);
  const holding = await createIuwsRegister(settings, []).holding(codigoRea, campaign);
  if (!holding) {
    console.error(`SIEX's REA has no holding ${codigoRea} in campaign ${campaign}: nothing was written`);
    return 1;
  }
  const tables = new TableStore(settings);
  const rea = options.rea ?? codigoRea;
  const before = await loaded(new FarmStore(tables, 0), rea, campaign);
  const checked = validateDataset({ farms: [farmOfHolding(holding, rea, before.kept)] });
  if (!checked.dataset) {
    console.error(`SIEX's holding ${codigoRea} is not a farm the gateway can take, nothing was written:`);
    for (const p of checked.problems) console.error(`  ${p.path}: ${p.message}`);
    return 1;
  }
  const farm = checked.dataset.farms[0]!;
  const report = (await importDataset(checked.dataset, tables)).farms;
  const outcome = report.added ? 'added' : report.changed ? 'changed' : 'unchanged';
  const after = locationsOfFarm(farm);
  const added = [...after].filter((l) => !before.locations.has(l)).length;
  const removed = [...before.locations].filter((l) => !after.has(l)).length;
  console.log(
    `farm ${rea} (${codigoRea}) campaign ${campaign}: ${outcome}; ${farm.crops.length} crop(s), ${after.size} crop location(s)` +
      (outcome === 'changed' ? `, ${added} added and ${removed} removed` : ''),
  );
  return 0;
}
