import { FarmIndex } from '../farms/farm-index';
import { CueBlocks, idAjenaOf, recordBlocks } from '../records/cue-blocks';
import { CueBlockBody } from '../records/record-kind';
import { FarmKey } from '../records/record-keys';
import { RecordView } from '../records/record-rows';
import { StoredRecord } from '../records/record-store';
import { cueDocument } from '../siex/cue-mapping';
import { ExportKinds } from './export-kinds';
import { JobBatch, JobItem, JobMeta } from './job';
import { byType, RecordRef, refKey } from './record-ref';

/**
 * What the records of a job need of the job (job-run.ts): its status row, the farm campaign whose records it holds,
 * each record's item, and the guard before every write.
 */
interface RecordsOfJob {
  readonly state: Readonly<JobMeta>;
  readonly farm: FarmKey;
  item(ref: RecordRef): JobItem;
  guard(): void;
}

/**
 * The records of one delivery of a job, each from its kind's store (the registry, export-kinds.ts): read at most once,
 * mapped to its kind's CUE blocks at most once, and marked as SIEX answered. The job names no kind: each record's
 * kind says where it is stored, which section its blocks go in, and under which IdAjena.
 */
export class JobRecords {
  private readonly records = new Map<string, StoredRecord<RecordView>>();
  private readonly mapped = new Map<string, CueBlocks>();

  constructor(
    private readonly kinds: ExportKinds,
    private readonly job: RecordsOfJob,
  ) {}

  /** Reads the records not read yet in this delivery, each from its kind's store. */
  async read(refs: readonly RecordRef[]): Promise<void> {
    const wanted = refs.filter((ref) => !this.records.has(refKey(ref)));
    if (wanted.length === 0) return;
    await Promise.all(
      [...byType(wanted)].map(async ([type, ofKind]) => {
        const byRowKey = await this.kinds.of(type).store.readRecords(
          this.job.farm,
          ofKind.map((ref) => this.job.item(ref).recordRowKey),
        );
        for (const ref of ofKind) {
          const r = byRowKey.get(this.job.item(ref).recordRowKey);
          if (r) this.records.set(refKey(ref), r);
        }
      }),
    );
  }

  /**
   * The record as its kind's CUE blocks (one per crop and variety, in its kind's section), mapped once; a record gone
   * cannot be sent. A deletion job's blocks are what SIEX must forget of it (`Borrar`).
   */
  cue(ref: RecordRef, farm: FarmIndex): CueBlocks {
    const key = refKey(ref);
    let m = this.mapped.get(key);
    if (!m) {
      const stored = this.records.get(key);
      m = stored
        ? recordBlocks(
            this.kinds.of(ref.type).cue,
            {
              ...stored,
              recordId: ref.id,
              held: this.job.item(ref).siexBlocks,
              kept: this.job.item(ref).siexBodies,
            },
            farm,
            this.job.state.kind === 'deletion',
          )
        : { ok: false, missing: ['the record no longer exists'] };
      this.mapped.set(key, m);
    }
    return m;
  }

  /**
   * The CUE document of a batch: the same every time it is built, as a repeat under the batch's key must be. One
   * document for the farm, each kind's blocks in its own `ActividadesExplotacion` section (CUE schema 3.11.4: one
   * CUADERNO per holding, its activities by section), in the order of the registry; a section without blocks is left
   * out.
   */
  document(batch: JobBatch, farm: FarmIndex): unknown {
    const sections = new Map<string, unknown[]>(this.kinds.all().map((k) => [k.cue.section, []]));
    for (const ref of batch.records) {
      const mapped = this.cue(ref, farm);
      if (mapped.ok) sections.get(this.kinds.of(ref.type).cue.section)!.push(...mapped.blocks);
    }
    return cueDocument(farm, Object.fromEntries([...sections].filter(([, blocks]) => blocks.length > 0)));
  }

  /** The section of a kind's blocks, where SIEX's verdicts on them are. */
  section(type: string): string {
    return this.kinds.of(type).cue.section;
  }

  /** The IdAjena of each block the record was sent as (its own id when it can no longer be mapped). */
  blockIds(ref: RecordRef, farm: FarmIndex): number[] {
    const m = this.cue(ref, farm);
    const { cue } = this.kinds.of(ref.type);
    return m.ok ? m.blocks.map((b) => idAjenaOf(cue, b)) : [ref.id];
  }

  /**
   * The blocks of the record SIEX holds once it accepted this job's document (none for a deletion), and each one's body
   * as sent, without its IdAjena: a later `Borrar` of it names it as SIEX holds it (cue-blocks.ts, `KeptBodies`).
   */
  private heldAfter(ref: RecordRef, farm: FarmIndex): { blocks: number[]; bodies: Record<string, CueBlockBody> } {
    const m = this.cue(ref, farm);
    const { cue } = this.kinds.of(ref.type);
    const held = m.ok ? m.blocks.filter((b) => b.Borrar !== true) : [];
    const bodies = held.map((b): [string, CueBlockBody] => {
      const { [cue.idAjena]: id, ...body } = b;
      return [String(id), body];
    });
    return { blocks: held.map((b) => idAjenaOf(cue, b)), bodies: Object.fromEntries(bodies) };
  }

  /**
   * Records SIEX took this job's document for, as SIEX now has them: a deletion job's are deleted here too (by their
   * kind), an export's marked exported with the blocks SIEX holds. Both apply once, so a redelivered job changes
   * nothing twice.
   */
  async accepted(refs: readonly RecordRef[], farm: FarmIndex, at: string): Promise<void> {
    const { clientId, kind, jobId } = this.job.state;
    if (kind !== 'deletion') await this.read(refs);
    for (const [type, ofKind] of byType(refs)) {
      const recordKind = this.kinds.of(type);
      this.job.guard();
      if (kind === 'deletion') {
        await recordKind.deleteAccepted(
          farm,
          ofKind.map((r) => r.id),
          { client: clientId, at, jobId },
        );
        continue;
      }
      const exported = ofKind.flatMap((ref) => {
        const stored = this.records.get(refKey(ref));
        return stored
          ? [
              {
                id: ref.id,
                recordRowKey: this.job.item(ref).recordRowKey,
                record: stored.record,
                ...this.heldAfter(ref, farm),
              },
            ]
          : [];
      });
      await recordKind.marks.markExported(this.job.farm, exported, { jobId, clientId, at });
    }
  }

  /**
   * Records a failed job may have sent to SIEX: exporting, amending or deleting them is refused until their outcome is
   * known (export-marks.ts).
   */
  async outcomeUnknown(refs: readonly RecordRef[]): Promise<void> {
    this.job.guard();
    for (const [type, ofKind] of byType(refs))
      await this.kinds.of(type).marks.markOutcomeUnknown(
        this.job.farm,
        ofKind.map((r) => r.id),
        this.job.state.jobId,
      );
  }

  /** Their outcome is known now: they are free of the job again. */
  async outcomeKnown(refs: readonly RecordRef[]): Promise<void> {
    for (const [type, ofKind] of byType(refs))
      await this.kinds.of(type).marks.clearOutcomeUnknown(
        this.job.farm,
        ofKind.map((r) => r.id),
      );
  }
}
