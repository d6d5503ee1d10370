import { createHash } from 'node:crypto';
import { MailError } from '../email/mailer';
import { afterTry, EventPurpose, jobEvent, WebhookDelivery } from '../notify/webhook-event';
import { WebhookPort } from '../notify/webhook-sender';
import { Logger } from '../log/logger';
import { maskEmail } from '../log/personal-data';
import { jobProblem, logText } from './job-errors';
import { JobRun } from './job-run';
import { isSettled } from './job-status';
import { settledRecords } from './job-outcome';
import { outcomeMail, reconciledMail } from './outcome-email';
import { ExportKinds } from './export-kinds';

export interface MailPort {
  send(message: { to: string; subject: string; text: string; html: string }, operationId: string): Promise<void>;
}

/** The channels a job's client is told through, and the time deliveries are dated and spaced by. */
export interface NotifyDeps {
  mailer: MailPort;
  /** Absent when the gateway has no signing key (WEBHOOK_SIGNING_KEY): nothing unsigned is ever sent. */
  webhooks?: WebhookPort;
  /** The kinds, in the order the e-mail counts them. */
  kinds: Pick<ExportKinds, 'all'>;
  now: () => number;
  /** The e-mails and deliveries as events (`mail.sent`, `webhook.sent`), and what the client is not told (`job.problem`). */
  log?: Logger;
}

/** A stable UUID per job and purpose: the mail service drops a repeat with the same Operation-Id, so each goes once. */
export function mailOperationId(jobId: number, purpose: EventPurpose = 'outcome'): string {
  const h = createHash('sha256')
    .update(`siex-export-job-${jobId}${purpose === 'outcome' ? '' : `-${purpose}`}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A settled job's notifications: one mechanism, two channels, each message sent once. What is due is the outcome
 * once the job settles, and (a failed job) a second message once every unknown outcome is known. The e-mail goes at
 * once (the mail service drops a repeat of its operation id); the webhook event is first written down with the job,
 * then delivered now and, while its receiver fails, again by the job's watch row with backoff for a day
 * (`webhookDue`): a delivery never blocks or fails the job, whose status is written before any message goes.
 */
export async function notify(deps: NotifyDeps, run: JobRun): Promise<void> {
  if (!isSettled(run.state.status)) return;
  const due: EventPurpose[] = [
    ...(run.state.emailSent ? [] : ['outcome' as const]),
    ...(run.state.reconcile === 'resolved' ? ['reconciled' as const] : []),
  ];
  await recordEvents(deps, run, due);
  const records = () => settledRecords(run.allItems());
  const kinds = deps.kinds.all().map((k) => k.urnType);
  if (due.includes('outcome')) {
    const sent = await sendMail(deps, run, outcomeMail(run.state, records(), kinds), 'outcome');
    await run.update({ emailSent: true, ...(sent === true ? {} : { emailError: sent }) });
  }
  if (due.includes('reconciled')) {
    await sendMail(deps, run, reconciledMail(run.state, records(), kinds), 'reconciled');
    await run.update({ reconcile: { from: 'resolved', to: 'told' } });
  }
  await deliverWebhooks(deps, run);
}

/** When the job's watch row should bring it back for a webhook delivery still pending; null when none is. */
export function webhookDue(meta: { webhooks: readonly WebhookDelivery[] }): number | null {
  const pending = meta.webhooks.filter((w) => w.state === 'pending').map((w) => w.due);
  return pending.length > 0 ? Math.min(...pending) : null;
}

/** Writes down the events due for the client's webhook, once each (their ids name the job and the purpose). */
async function recordEvents(deps: NotifyDeps, run: JobRun, due: EventPurpose[]): Promise<void> {
  if (!run.state.notifyWebhook || due.length === 0) return;
  if (!deps.webhooks) {
    jobProblem(deps.log, run.jobId, 'webhook not sent: WEBHOOK_SIGNING_KEY is not set, so nothing can be signed');
    return;
  }
  const known = new Set(run.state.webhooks.map((w) => w.id));
  const fresh = due.map((p) => jobEvent(run.state, p, deps.now())).filter((e) => !known.has(e.id));
  if (fresh.length > 0) await run.update({ webhooks: [...run.state.webhooks, ...fresh] });
}

/** Tries every pending delivery that is due, and writes down how each went. */
async function deliverWebhooks(deps: NotifyDeps, run: JobRun): Promise<void> {
  const port = deps.webhooks;
  if (!port || !run.state.webhooks.some((w) => w.state === 'pending' && w.due <= deps.now())) return;
  const tried: WebhookDelivery[] = [];
  for (const w of run.state.webhooks) {
    if (w.state !== 'pending' || w.due > deps.now()) {
      tried.push(w);
      continue;
    }
    const started = deps.now();
    const outcome = await port.deliver(
      { url: run.state.notifyWebhook, clientId: run.state.clientId, eventId: w.id, body: w.body },
      started,
    );
    const next = afterTry(w, outcome, deps.now());
    deps.log?.event(
      'webhook.sent',
      {
        jobId: run.jobId,
        eventId: w.id,
        outcome: next.state === 'delivered' ? 'delivered' : next.state === 'abandoned' ? 'abandoned' : 'failed',
        attempts: next.attempts,
        durationMs: deps.now() - started,
        ...(outcome === true ? {} : { detail: outcome }),
      },
      outcome === true ? 'info' : 'warn',
    );
    tried.push(next);
  }
  await run.update({ webhooks: tried });
}

/** Sends one e-mail: true, or why the mail service refused it for good (sending again cannot help). */
async function sendMail(
  deps: NotifyDeps,
  run: JobRun,
  mail: { subject: string; text: string; html: string },
  purpose: EventPurpose,
): Promise<true | string> {
  const started = deps.now();
  const sent = (outcome: 'sent' | 'refused' | 'failed') =>
    deps.log?.event(
      'mail.sent',
      { jobId: run.jobId, purpose, outcome, to: maskEmail(run.state.notifyEmail), durationMs: deps.now() - started },
      outcome === 'sent' ? 'info' : 'warn',
    );
  try {
    await deps.mailer.send({ to: run.state.notifyEmail, ...mail }, mailOperationId(run.jobId, purpose));
    sent('sent');
    return true;
  } catch (e) {
    const refused = e instanceof MailError && !e.retryable;
    sent(refused ? 'refused' : 'failed');
    if (!refused) throw e;
    // The job's outcome stays readable through jobstatus and jobresult; the refusal is kept for operators.
    jobProblem(deps.log, run.jobId, `the mail service refused the e-mail: ${logText(e)}`);
    return e.message;
  }
}
