import { DisposableLike } from './types';

/**
 * The worker exports a `Disposable` class on `@azure/functions-core` and returns one from `registerFunction` and
 * `registerHook`; the library hands those straight back to the app (`app.hook.*` return values), so it must behave
 * the same: `dispose()` runs once, `Disposable.from` combines several.
 */
export class Disposable implements DisposableLike {
  static from(...disposables: DisposableLike[]): Disposable {
    return new Disposable(() => {
      for (const d of disposables) d?.dispose();
    });
  }

  #callOnDispose?: () => unknown;

  constructor(callOnDispose: () => unknown) {
    this.#callOnDispose = callOnDispose;
  }

  dispose(): unknown {
    const fn = this.#callOnDispose;
    this.#callOnDispose = undefined;
    return fn?.();
  }
}
