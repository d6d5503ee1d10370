import { createHash } from 'node:crypto';
import { MailError } from '../email/mailer';
import { EventPurpose, jobEvent, WebhookDelivery } from '../notify/webhook-event';
import { deliveryMessages, Recipient, WebhookMessage } from '../notify/webhook-delivery';
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

/**
 * Where a job's webhook events go: to the delivery queue (shared/notify/webhook-delivery.ts), one message per client
 * of the farm with a webhook. The worker never waits on a receiver.
 */
export interface WebhookOutbox {
  /** The clients whose farms include this holding (REA code) and who have a webhook. */
  recipients(rea: string): Promise<Recipient[]>;
  /** Puts one delivery on the delivery queue. */
  send(message: WebhookMessage): Promise<void>;
}

/** The channels a job's client is told through, and the time events are dated by. */
export interface NotifyDeps {
  mailer: MailPort;
  /** Absent when the gateway has no signing key (WEBHOOK_SIGNING_KEY): nothing unsigned is ever sent. */
  webhooks?: WebhookOutbox;
  /** The kinds, in the order the e-mail counts them. */
  kinds: Pick<ExportKinds, 'all'>;
  now: () => number;
  /** The e-mails as events (`mail.sent`), and what the client is not told (`job.problem`). */
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
 * once to the job's client (the mail service drops a repeat of its operation id); the webhook event is written down
 * with the job before the e-mail goes, then handed to the delivery queue for every client of the farm with a webhook,
 * and marked handed over only then: a crash in between brings the job back by its watch row (`webhookDue`) to hand
 * it over again. The worker never waits on a receiver, and the job's status is written before any message goes.
 */
export async function notify(deps: NotifyDeps, run: JobRun): Promise<void> {
  if (!isSettled(run.state.status)) return;
  const due: EventPurpose[] = [
    ...(run.state.emailSent ? [] : ['outcome' as const]),
    ...(run.state.reconcile === 'resolved' ? ['reconciled' as const] : []),
  ];
  // Written before the e-mail marks the outcome told: a crash after it finds the event on the row.
  const recipients = await recordEvents(deps, run, due);
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
  await handOver(deps, run, recipients);
}

/** When the job's watch row should bring it back to hand an event to the delivery queue; null when none waits. */
export function webhookDue(meta: { webhooks: readonly WebhookDelivery[] }): number | null {
  const pending = meta.webhooks.filter((w) => w.state === 'pending' && !w.queued).map((w) => w.due);
  return pending.length > 0 ? Math.min(...pending) : null;
}

/**
 * Who hears of the job: its own client, with the webhook it had when the job started (or, without one then, the one
 * it has now), then every other client of the farm.
 */
async function recipientsOf(outbox: WebhookOutbox, job: JobRun['state']): Promise<Recipient[]> {
  const own = job.notifyWebhook ? [{ clientId: job.clientId, url: job.notifyWebhook }] : [];
  const farm = await outbox.recipients(job.rea);
  const mine = own.length > 0 ? own : farm.filter((r) => r.clientId === job.clientId);
  return [...mine, ...farm.filter((r) => r.clientId !== job.clientId)];
}

/**
 * Writes down the events due, once each (their ids name the job and the purpose), and answers who is to hear of the
 * job's events not yet handed over: nobody when none waits, or no client of the farm has a webhook.
 */
async function recordEvents(deps: NotifyDeps, run: JobRun, due: EventPurpose[]): Promise<Recipient[]> {
  const waiting = run.state.webhooks.some((w) => w.state === 'pending' && !w.queued);
  if (due.length === 0 && !waiting) return [];
  const outbox = deps.webhooks;
  if (!outbox) {
    if (run.state.notifyWebhook)
      jobProblem(deps.log, run.jobId, 'webhook not sent: WEBHOOK_SIGNING_KEY is not set, so nothing can be signed');
    return [];
  }
  const recipients = await recipientsOf(outbox, run.state);
  if (recipients.length === 0) return [];
  const known = new Set(run.state.webhooks.map((w) => w.id));
  const fresh = due.map((p) => jobEvent(run.state, p, deps.now())).filter((e) => !known.has(e.id));
  if (fresh.length > 0) await run.update({ webhooks: [...run.state.webhooks, ...fresh] });
  return recipients;
}

/** Hands every event not yet handed over to the delivery queue, one message per recipient, then marks it so. */
async function handOver(deps: NotifyDeps, run: JobRun, recipients: readonly Recipient[]): Promise<void> {
  const outbox = deps.webhooks;
  const waiting = run.state.webhooks.filter((w) => w.state === 'pending' && !w.queued);
  if (!outbox || recipients.length === 0 || waiting.length === 0) return;
  for (const event of waiting)
    for (const message of deliveryMessages(run.state, event, recipients)) await outbox.send(message);
  const handed = new Set(waiting.map((w) => w.id));
  await run.update({ webhooks: run.state.webhooks.map((w) => (handed.has(w.id) ? { ...w, queued: true } : w)) });
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
