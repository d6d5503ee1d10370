import { DateTime } from 'luxon';
import { PhytoRequest } from '../api/phyto-schemas';
import { StoredApplicator, StoredProduct } from '../catalog/catalog-store';
import { CatalogueName } from '../catalog/siex-codes/catalogues';
import { SiexCodes } from '../catalog/siex-codes/siex-codes';
import { ProductUse } from '../catalog/product';
import { FarmIndex, IdcpEntry } from '../farms/farm-index';
import { DayCounts } from './application-history';

/** Everything the registration rules look at; the rules themselves do no I/O. */
export interface RuleContext {
  request: PhytoRequest;
  /** The application time, in Madrid. */
  appliedAt: DateTime;
  now: DateTime;
  /** How many days back the application may be; null: no window (a correction that keeps the date). */
  maxBackdateDays: number | null;
  farm: FarmIndex;
  product: StoredProduct | undefined;
  applicator: StoredApplicator | undefined;
  /** The card numbered as the request's advisor, if any has that number. */
  advisor: StoredApplicator | undefined;
  /** Prior applications of this product per enclosure (SIGPAC code), across campaigns; none stored: absent. */
  history: Map<string, DayCounts>;
  /** True when a SIEX catalogue code exists and is in force on the date (catalogue name as in the SIEX files). */
  codeInForce: (catalogue: CatalogueName, code: string, on: DateTime) => boolean;
  /** The SIEX catalogues: units with their dimensions, the pest groups. */
  codes: SiexCodes;
}

/** What the rules resolved on the way, needed to build the stored record. */
export interface Resolution {
  entries: IdcpEntry[];
  /** Uses that authorize this application (crop, pest, dose, month), per crop code. */
  uses: ProductUse[];
}
