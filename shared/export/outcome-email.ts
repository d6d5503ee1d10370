import { JobResultView } from '../api/export-schemas';
import { JobKind, JobMeta } from './job';
import { LEGACY_RECORD_TYPE } from './record-ref';

export interface OutcomeMail {
  subject: string;
  text: string;
  html: string;
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const UNKNOWN = 'OUTCOME_UNKNOWN';

/** A paragraph, and its HTML when it is more than the escaped text. */
type Paragraph = string | { text: string; html: string };

/** A record of the result as its URN (a result names a treatment's type by leaving it out). */
const urnOf = (r: { id: number; type?: string | undefined }) => `urn:ngsi-ld:${r.type ?? LEGACY_RECORD_TYPE}:${r.id}`;

/** Paragraphs, then one line per record: as text and as HTML. */
function render(subject: string, paragraphs: Paragraph[], result: JobResultView): OutcomeMail {
  const lines = [
    ...paragraphs.map((p) => (typeof p === 'string' ? p : p.text)),
    '',
    ...result.data.map((d) => `${urnOf(d)}: ok`),
    ...result.error.map((e) => `${urnOf(e)}: ${e.code}: ${e.message}`),
  ];
  const rows = [
    ...result.data.map((d) => `<tr><td>${escape(urnOf(d))}</td><td>ok</td><td></td></tr>`),
    ...result.error.map(
      (e) => `<tr><td>${escape(urnOf(e))}</td><td>${escape(e.code)}</td><td>${escape(e.message)}</td></tr>`,
    ),
  ];
  return {
    subject,
    text: lines.join('\n'),
    html:
      paragraphs.map((p) => `<p>${typeof p === 'string' ? escape(p) : p.html}</p>`).join('') +
      `<table><tr><th>record</th><th>result</th><th>detail</th></tr>${rows.join('')}</table>`,
  };
}

/** How many records of each kind the job holds and SIEX accepted: treatments first, then the other kinds by name. */
function byKind(result: JobResultView): string {
  const counts = new Map<string, { accepted: number; total: number }>();
  const count = (r: { type?: string | undefined }, accepted: number) => {
    const type = r.type ?? LEGACY_RECORD_TYPE;
    const c = counts.get(type) ?? { accepted: 0, total: 0 };
    counts.set(type, { accepted: c.accepted + accepted, total: c.total + 1 });
  };
  result.data.forEach((d) => count(d, 1));
  result.error.forEach((e) => count(e, 0));
  const rank = (type: string) => (type === LEGACY_RECORD_TYPE ? '' : type);
  const parts = [...counts]
    .sort(([a], [b]) => rank(a).localeCompare(rank(b)))
    .map(([type, c]) => `${type} ${c.accepted} of ${c.total} accepted`);
  return `By kind: ${parts.join(', ')}.`;
}

/** What the records' outcomes add up to, by kind, with the unknown ones said plainly. */
function tally(meta: JobMeta, result: JobResultView): string[] {
  const unknown = result.error.filter((e) => e.code === UNKNOWN).length;
  return [
    `Records accepted by SIEX: ${result.data.length} of ${meta.total}.`,
    ...(result.data.length + result.error.length > 0 ? [byKind(result)] : []),
    ...(unknown > 0
      ? [
          `Outcome not known: ${unknown} (${UNKNOWN}). These records may have reached SIEX, but its answer never came ` +
            'back. The gateway keeps asking SIEX and will write again once it knows; until then they cannot be ' +
            'exported again, so that SIEX never receives them twice.',
        ]
      : []),
  ];
}

/** What a job is called in its e-mails: an export, or the deletion of records SIEX held. */
const JOB_NAMES: Record<JobKind, { lower: string; title: string }> = {
  export: { lower: 'export job', title: 'Export job' },
  deletion: { lower: 'deletion job', title: 'Deletion job' },
};

/** The e-mail sent when a job settles: job id, final status and the outcome of every record. */
export function outcomeMail(meta: JobMeta, result: JobResultView): OutcomeMail {
  const { status, error } = meta;
  const name = JOB_NAMES[meta.kind];
  return render(
    `SIEX ${name.lower} ${meta.jobId}: ${status}`,
    [
      {
        text: `${name.title} ${meta.jobId} for farm ${meta.agrifarmId} finished: ${status}.`,
        html: `${name.title} <b>${meta.jobId}</b> for farm ${escape(meta.agrifarmId)} finished: <b>${status}</b>.`,
      },
      ...(meta.kind === 'deletion'
        ? ['A record SIEX accepted the deletion of is deleted in the gateway too; a refused one stays as it was.']
        : []),
      ...tally(meta, result),
      ...(error ? [`The job could not run: ${error.code}: ${error.message}`] : []),
    ],
    result,
  );
}

/** The second e-mail of a failed job: every outcome it had left unknown is known now (from SIEX, or from support). */
export function reconciledMail(meta: JobMeta, result: JobResultView): OutcomeMail {
  return render(
    `SIEX export job ${meta.jobId}: every outcome is known now`,
    [
      `Export job ${meta.jobId} for farm ${meta.agrifarmId} had records whose outcome was not known. It is known now; ` +
        'the records accepted by SIEX are marked exported, the others can be exported again.',
      ...tally(meta, result),
    ],
    result,
  );
}
