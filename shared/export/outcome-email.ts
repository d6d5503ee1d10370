import { JobKind, JobMeta } from './job';
import { SettledRecord } from './job-outcome';

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

/** A record as its URN. */
const urnOf = ({ ref }: SettledRecord) => `urn:ngsi-ld:${ref.type}:${ref.id}`;

/** A record's result and its detail: `ok`, or its code and message. */
const cells = ({ outcome }: SettledRecord): [string, string] | [string] =>
  outcome.state === 'ok' ? ['ok'] : [outcome.code, outcome.message];

/** Paragraphs, then one line per record, the accepted ones first: as text and as HTML. */
function render(subject: string, paragraphs: Paragraph[], records: readonly SettledRecord[]): OutcomeMail {
  const listed = [
    ...records.filter((r) => r.outcome.state === 'ok'),
    ...records.filter((r) => r.outcome.state !== 'ok'),
  ];
  const lines = [
    ...paragraphs.map((p) => (typeof p === 'string' ? p : p.text)),
    '',
    ...listed.map((r) => [urnOf(r), ...cells(r)].join(': ')),
  ];
  const rows = listed.map((r) => {
    const [result, detail = ''] = cells(r);
    return `<tr><td>${escape(urnOf(r))}</td><td>${escape(result)}</td><td>${escape(detail)}</td></tr>`;
  });
  return {
    subject,
    text: lines.join('\n'),
    html:
      paragraphs.map((p) => `<p>${typeof p === 'string' ? escape(p) : p.html}</p>`).join('') +
      `<table><tr><th>record</th><th>result</th><th>detail</th></tr>${rows.join('')}</table>`,
  };
}

/**
 * How many records of each kind the job holds and SIEX accepted, the kinds in `kinds`'s order (the registry's), any
 * other after them by name.
 */
function byKind(records: readonly SettledRecord[], kinds: readonly string[]): string {
  const counts = new Map<string, { accepted: number; total: number }>();
  for (const { ref, outcome } of records) {
    const c = counts.get(ref.type) ?? { accepted: 0, total: 0 };
    counts.set(ref.type, { accepted: c.accepted + (outcome.state === 'ok' ? 1 : 0), total: c.total + 1 });
  }
  const rank = (type: string) => (kinds.includes(type) ? kinds.indexOf(type) : kinds.length);
  const parts = [...counts]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([type, c]) => `${type} ${c.accepted} of ${c.total} accepted`);
  return `By kind: ${parts.join(', ')}.`;
}

/** What the records' outcomes add up to, by kind, with the unknown ones said plainly. */
function tally(meta: JobMeta, records: readonly SettledRecord[], kinds: readonly string[]): string[] {
  const unknown = records.filter((r) => r.outcome.state === 'error' && r.outcome.code === UNKNOWN).length;
  const accepted = records.filter((r) => r.outcome.state === 'ok').length;
  return [
    `Records accepted by SIEX: ${accepted} of ${meta.total}.`,
    ...(records.length > 0 ? [byKind(records, kinds)] : []),
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

/**
 * The e-mail sent when a job settles: job id, final status and the outcome of every record (settledRecords), counted
 * by kind in the order of `kinds`.
 */
export function outcomeMail(meta: JobMeta, records: readonly SettledRecord[], kinds: readonly string[]): OutcomeMail {
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
      ...tally(meta, records, kinds),
      ...(error ? [`The job could not run: ${error.code}: ${error.message}`] : []),
    ],
    records,
  );
}

/** The second e-mail of a failed job: every outcome it had left unknown is known now (from SIEX, or from support). */
export function reconciledMail(
  meta: JobMeta,
  records: readonly SettledRecord[],
  kinds: readonly string[],
): OutcomeMail {
  return render(
    `SIEX export job ${meta.jobId}: every outcome is known now`,
    [
      `Export job ${meta.jobId} for farm ${meta.agrifarmId} had records whose outcome was not known. It is known now; ` +
        'the records accepted by SIEX are marked exported, the others can be exported again.',
      ...tally(meta, records, kinds),
    ],
    records,
  );
}
