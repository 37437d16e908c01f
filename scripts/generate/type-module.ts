/**
 * One declaration module per release (`types.ts`): the per-schema modules types.ts writes, joined,
 * each declaration under the name the pinned entry exports it by. A consumer's tsc then reads
 * one file of the release instead of one per schema (resolving and opening ~540 files was a third
 * of its cost above tsc's own), and hover shows the name a buyer can import.
 */
import path from 'node:path';
import ts from 'typescript';
import { banner } from './output.js';

/** Where an identifier is a member's name, not a type's: left as it is. */
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    ((ts.isPropertySignature(parent) || ts.isMethodSignature(parent) || ts.isPropertyAssignment(parent)) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    (ts.isPropertyAccessExpression(parent) && parent.name === node)
  );
}

/**
 * One module's declarations (its text after the banner) with their names in the joined module:
 * its imports (`import type { Product as $Product } from '../core/product.js'`) dropped and their
 * aliases replaced by the exported name, its own declarations renamed as `names` says.
 */
function joinable(rel: string, text: string, names: ReadonlyMap<string, ReadonlyMap<string, string>>): string {
  const file = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const renames = new Map(names.get(rel));
  let bodyStart = 0;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    bodyStart = statement.getEnd();
    const target = path.posix.join(path.posix.dirname(rel), (statement.moduleSpecifier as ts.StringLiteral).text).replace(/\.js$/, '.ts');
    const bindings = statement.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings))
      throw new Error(`types module: ${rel} has an import of a shape it does not know`);
    for (const spec of bindings.elements) {
      const declared = (spec.propertyName ?? spec.name).text;
      const exported = names.get(target)?.get(declared);
      if (exported === undefined) throw new Error(`types module: ${rel} imports ${declared}, which ${target} does not declare`);
      renames.set(spec.name.text, exported);
    }
  }
  const edits: Array<readonly [number, number, string]> = [];
  const visit = (node: ts.Node): void => {
    if (node.getStart() >= bodyStart && ts.isIdentifier(node) && !isMemberName(node)) {
      const to = renames.get(node.text);
      if (to !== undefined && to !== node.text) edits.push([node.getStart(), node.getEnd(), to]);
      else if (to === undefined && node.text.startsWith('$'))
        throw new Error(`types module: ${rel} names ${node.text}, which it does not import`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let body = text;
  for (const [from, to, name] of edits.reverse()) body = body.slice(0, from) + name + body.slice(to);
  return body.slice(bodyStart).trim();
}

/**
 * The `types.ts` module of a version: every type module's declarations under their exported names,
 * in module order, each group headed by the schema file it comes from.
 *
 * @param version The AdCP version, for the banner.
 * @param types Type module path (`types/core/product.ts`) → text, as generateTypes writes them.
 * @param exported Type module path → its `[declared, exported]` names (entries.ts pinnedNames).
 * @returns The module's text.
 * @throws Error for an import of a shape it does not know, or a name no module declares.
 * @example
 * typesModule('3.1.19', types, pinnedNames(types, mainOf));
 */
export function typesModule(
  version: string,
  types: ReadonlyMap<string, string>,
  exported: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>>,
): string {
  const names = new Map([...exported].map(([rel, list]) => [rel, new Map(list)]));
  const head = banner(version);
  const parts = [...types.keys()].sort().map((rel) => {
    const text = types.get(rel)!;
    if (!text.startsWith(head)) throw new Error(`types module: ${rel} does not start with its banner`);
    const schema = rel.replace(/^types\//, '').replace(/\.ts$/, '.json');
    return `// ${schema}\n\n${joinable(rel, text.slice(head.length), names)}\n`;
  });
  return `${head}\n${parts.join('\n')}`;
}
