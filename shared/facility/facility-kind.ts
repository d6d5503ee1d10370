import { daysWindow } from '../domain/backdate-window';
import { RecordKind } from '../records/record-kind';
import { FACILITY_BLOCK, facilityCue } from './cue-block';
import {
  FACILITY_FORMAT,
  facilityOf,
  facilityRecord,
  FacilityTreatment,
  StoredFacilityRequest,
  StoredFacilityTreatment,
  storedRequestOf,
} from './facility';
import { facilityAnswer } from './kind-reads';
import { FacilityResolution, judgeFacility } from './rules';
import { FacilityAnswer, facilityFromWire, facilityToWire, facilityWire } from './wire-mapper';

/**
 * The store and premises treatment (`AgriFacilityTreatment`, CUE `TratamientosEdifInstalaciones`) as a record kind
 * of the records core (shared/records/record-kind.ts). It keeps no history rows: a store is no enclosure of the farm
 * index, and no label's count or interval is kept per building.
 */
export const facilityKind: RecordKind<FacilityTreatment, StoredFacilityTreatment, FacilityResolution, FacilityAnswer> =
  {
    urnType: 'AgriFacilityTreatment',
    label: 'store treatment',
    wire: facilityWire,
    toRequest: facilityFromWire,
    toWire: facilityToWire,
    toStored: storedRequestOf,
    // Pointers hold format 1 only (facility.ts).
    fromStored: (stored) => facilityOf(stored as StoredFacilityRequest),
    appliedAt: (t) => t.appliedAt,
    // RD 1311/2012 sets no deadline of its own for this record: the operators' MAX_BACKDATE_DAYS, as for treatments.
    recordingWindow: (settings) => daysWindow(settings.MAX_BACKDATE_DAYS),
    // Lists filter by the main product's register code, as the treatments' do.
    listValue: (t) => t.product.code,
    blockKeys: () => [FACILITY_BLOCK],
    historyKeys: () => [],
    updatedHistory: () => new Map(),
    judge: judgeFacility,
    view: ({ id, request, exported, now }) => facilityRecord({ id, treatment: request, exported, now }),
    answer: (record, farm) => facilityAnswer(record, farm),
    // The first format: nothing older to read.
    upgrade: (record) => record,
    format: FACILITY_FORMAT,
    cue: facilityCue,
  };
