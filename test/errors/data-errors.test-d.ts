/**
 * The errors built from their data (src/errors/errors.ts, DataError) declare their fields apart
 * from the data their constructor copies: each declared field must be its data's, of its type, or
 * this file fails to compile.
 */
import { expectTypeOf } from 'vitest';
import type { LimitError, NoCommonVersionError, TaskMismatchError, VersionMismatchError } from '../../src/errors/errors.js';

/** The error's fields named by the data's keys (a key the error does not declare is `never`). */
type Declared<E, D> = { readonly [K in keyof D]: K extends keyof E ? E[K] : never };

type VersionData = ConstructorParameters<typeof VersionMismatchError>[1];
expectTypeOf<Declared<VersionMismatchError, VersionData>>().toEqualTypeOf<Readonly<VersionData>>();
type CommonData = ConstructorParameters<typeof NoCommonVersionError>[1];
expectTypeOf<Declared<NoCommonVersionError, CommonData>>().toEqualTypeOf<Readonly<CommonData>>();
type TaskData = ConstructorParameters<typeof TaskMismatchError>[1];
expectTypeOf<Declared<TaskMismatchError, TaskData>>().toEqualTypeOf<Readonly<TaskData>>();
type LimitData = ConstructorParameters<typeof LimitError>[2];
expectTypeOf<Declared<LimitError, LimitData>>().toEqualTypeOf<Readonly<LimitData>>();
