import { JobResultView } from '../api/export-schemas';
import { JobMeta } from './job';

export interface OutcomeMail {
  subject: string;
  text: string;
  html: string;
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The e-mail sent when a job settles: job id, final status and the outcome of every record. */
export function outcomeMail(meta: JobMeta, result: JobResultView): OutcomeMail {
  const { status, error } = meta;
  const lines = [
    `Export job ${meta.jobId} for farm ${meta.agrifarmId} finished: ${status}.`,
    `Records accepted by SIEX: ${result.data.length} of ${meta.total}.`,
    ...(error ? [`The job could not run: ${error.code}: ${error.message}`] : []),
    '',
    ...result.data.map((d) => `urn:ngsi-ld:AgriPhytosanitary:${d.id}: ok`),
    ...result.error.map((e) => `urn:ngsi-ld:AgriPhytosanitary:${e.id}: ${e.code}: ${e.message}`),
  ];
  const rows = [
    ...result.data.map((d) => `<tr><td>${d.id}</td><td>ok</td><td></td></tr>`),
    ...result.error.map((e) => `<tr><td>${e.id}</td><td>${escape(e.code)}</td><td>${escape(e.message)}</td></tr>`),
  ];
  return {
    subject: `SIEX export job ${meta.jobId}: ${status}`,
    text: lines.join('\n'),
    html:
      `<p>Export job <b>${meta.jobId}</b> for farm ${escape(meta.agrifarmId)} finished: <b>${status}</b>.</p>` +
      `<p>Records accepted by SIEX: ${result.data.length} of ${meta.total}.</p>` +
      (error ? `<p>The job could not run: ${escape(error.code)}: ${escape(error.message)}</p>` : '') +
      `<table><tr><th>record</th><th>result</th><th>detail</th></tr>${rows.join('')}</table>`,
  };
}
