import { recordParamsSchemaOf } from '../../api/record-path-and-patch';
import { KindEntry, KindHttp } from '../../records/kind-entry';
import { RecordRoutes } from '../record-routes';

/** What each of a kind's seven contracts is built from: its entry, its HTTP face, its routes, the record in the path. */
export interface KindContractParts {
  entry: KindEntry;
  http: KindHttp;
  routes: RecordRoutes<string>;
  params: ReturnType<typeof recordParamsSchemaOf>;
}
