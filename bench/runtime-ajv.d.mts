/** Types of bench/runtime-ajv.mjs. */
export interface RuntimeValidator {
  (data: unknown): boolean;
  errors?: Array<{ instancePath: string; keyword: string; message?: string }> | null;
}
export interface RuntimeBundle {
  readonly keywords: readonly string[];
  readonly schemas: ReadonlyArray<{ readonly id: string; readonly schema: object }>;
}
export declare function createRuntimeAjv(keywords: readonly string[], allErrors?: boolean): unknown;
export declare function compileFromBundle(bundle: RuntimeBundle, id: string, allErrors?: boolean): RuntimeValidator;
