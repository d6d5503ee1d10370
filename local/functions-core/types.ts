/**
 * The slice of the `@azure/functions-core` contract that `@azure/functions` 4.x uses. The real module is built into
 * the Azure Functions Node.js worker and never published, so these shapes are written from what the library reads
 * and writes (node_modules/@azure/functions/src: ProgrammingModel, InvocationModel, converters/*, app, hooks).
 * Everything RPC-shaped mirrors the worker's protobuf messages: optional, nullable, camelCase.
 */

export type RpcLogLevel = 'trace' | 'debug' | 'information' | 'warning' | 'error' | 'critical' | 'none';
export type RpcLogCategory = 'user' | 'system' | 'customMetric';

interface RpcNullableString {
  value?: string | null;
}

export interface RpcHttpCookie {
  name?: string | null;
  value?: string | null;
  domain?: RpcNullableString | null;
  path?: RpcNullableString | null;
  expires?: { value?: { seconds?: number | null } | null } | null;
  secure?: { value?: boolean | null } | null;
  httpOnly?: { value?: boolean | null } | null;
  sameSite?: 'none' | 'lax' | 'strict' | 'explicitNone' | null;
  maxAge?: { value?: number | null } | null;
}

export interface RpcHttpData {
  method?: string | null;
  url?: string | null;
  headers?: Record<string, string> | null;
  body?: RpcTypedData | null;
  params?: Record<string, string> | null;
  statusCode?: string | null;
  query?: Record<string, string> | null;
  enableContentNegotiation?: boolean | null;
  cookies?: RpcHttpCookie[] | null;
  nullableHeaders?: Record<string, RpcNullableString> | null;
  nullableParams?: Record<string, RpcNullableString> | null;
  nullableQuery?: Record<string, RpcNullableString> | null;
}

export interface RpcTypedData {
  string?: string | null;
  json?: string | null;
  bytes?: Uint8Array | null;
  stream?: Uint8Array | null;
  http?: RpcHttpData | null;
  int?: number | null;
  double?: number | null;
  collectionBytes?: { bytes?: Uint8Array[] | null } | null;
  collectionString?: { string?: string[] | null } | null;
  collectionDouble?: { double?: number[] | null } | null;
  collectionSint64?: { sint64?: number[] | null } | null;
}

export interface RpcParameterBinding {
  name?: string | null;
  data?: RpcTypedData | null;
}

/** A binding as `@azure/functions` registers it: the trigger/input/output options spread in (route, queueName...). */
export interface RpcBindingInfo {
  type?: string | null;
  direction?: 'in' | 'out' | 'inout' | null;
  dataType?: 'undefined' | 'string' | 'binary' | 'stream' | null;
  [option: string]: unknown;
}

interface RpcTraceContext {
  traceParent?: string | null;
  traceState?: string | null;
  attributes?: Record<string, string> | null;
}

interface RpcRetryContext {
  retryCount?: number | null;
  maxRetryCount?: number | null;
  exception?: { message?: string | null; source?: string | null; stackTrace?: string | null } | null;
}

export interface RpcInvocationRequest {
  invocationId?: string | null;
  functionId?: string | null;
  inputData?: RpcParameterBinding[] | null;
  triggerMetadata?: Record<string, RpcTypedData> | null;
  traceContext?: RpcTraceContext | null;
  retryContext?: RpcRetryContext | null;
}

export interface RpcInvocationResponse {
  invocationId?: string | null;
  outputData?: RpcParameterBinding[] | null;
  returnValue?: RpcTypedData | null;
}

export interface RpcFunctionMetadata {
  name?: string | null;
  functionId?: string | null;
  bindings?: Record<string, RpcBindingInfo> | null;
  rawBindings?: string[] | null;
  scriptFile?: string | null;
}

/** What `app.*` hands to `registerFunction` (converters/toCoreFunctionMetadata.ts). */
export interface FunctionMetadata {
  name: string;
  functionId?: string;
  bindings: Record<string, RpcBindingInfo>;
  retryOptions?: unknown;
}

export type FunctionCallback = (...args: unknown[]) => unknown;

export type InvocationState = 'preInvocationHooks' | 'postInvocationHooks' | 'invocation';

export interface CoreInvocationContext {
  invocationId: string;
  request: RpcInvocationRequest;
  metadata: RpcFunctionMetadata;
  state?: InvocationState;
  log(level: RpcLogLevel, category: RpcLogCategory, message: string): void;
}

interface InvocationArguments {
  context: unknown;
  inputs: unknown[];
}

interface InvocationModel {
  getArguments(): Promise<InvocationArguments>;
  invokeFunction(context: unknown, inputs: unknown[], callback: FunctionCallback): Promise<unknown>;
  getResponse(context: unknown, result: unknown): Promise<RpcInvocationResponse>;
}

export interface ProgrammingModel {
  name: string;
  version: string;
  getInvocationModel(coreCtx: CoreInvocationContext): InvocationModel;
  /** Called once after start-up; `@azure/functions` locks `app.setup()` here and reports HTTP streaming. */
  getCapabilities?(capabilities: Record<string, string>): Promise<Record<string, string>> | Record<string, string>;
}

export type HookName = 'appStart' | 'appTerminate' | 'preInvocation' | 'postInvocation' | 'log';
// Hook contexts are built by the runner and read by the library's own wrappers; their shape is the library's concern.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HookCallback = (context: any) => unknown;

export interface DisposableLike {
  dispose(): unknown;
}
