/**
 * A history row a kind cannot read: a shape none of its formats has, or a total past what a number holds exactly
 * (2^53). No rule can be judged on it and no change may write over it, so the change is refused as the gateway's
 * failure, not the request's: 503, and an event the operators are alerted by (shared/http/endpoint.ts). It stays so
 * until the row is rebuilt from the records (`npm run admin -- rebuild-history`).
 */
export class UnreadableRow extends Error {
  constructor(
    readonly rowKey: string,
    readonly problem: string,
  ) {
    super(`history row ${rowKey} cannot be read: ${problem}`);
    this.name = 'UnreadableRow';
  }
}
