import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/source-files.js';

/**
 * A folder's face exports what other folders use, nothing more (issue #38 item 1).
 *
 * The faces are the index.ts files the through-index rule of .dependency-cruiser.cjs lets other
 * folders import: every `src/<folder>/index.ts`, plus the sub-faces that rule names (`src/db/jobs/`, …).
 * A name a face exports must be imported from it by a production file outside the face's folder;
 * tests (`*.test.ts`, test/) do not count, since they may reach into any file directly. Imports are
 * read with the TypeScript compiler (import and export-from declarations, type-only ones included),
 * so `export *` and renamed imports count as the compiler sees them.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

const rel = (path: string) => relative(ROOT, path).split(sep).join('/');

/** The index files other folders may import, as the through-index rule's exceptions say. */
function faces(files: readonly string[]): string[] {
  const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'));
  const rule = config.forbidden.find((r: { name: string }) => r.name === 'through-index');
  const allowed = (rule.to.pathNot as string[]).filter((p) => !p.includes('$1')).map((p) => new RegExp(p));
  return files.map(rel).filter((path) => path.endsWith('/index.ts') && allowed.some((re) => re.test(path)));
}

/** For each face, the names it exports that no production file outside its folder imports from it. */
function unusedExports(): Map<string, { exported: number; unused: string[] }> {
  const files = sourceFiles(SRC);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    allowJs: false,
  });
  const checker = program.getTypeChecker();
  const faceFiles = new Set(faces(files));
  const used = new Map<string, Set<string>>([...faceFiles].map((face) => [face, new Set<string>()]));
  const namespaceImports: string[] = [];

  for (const file of program.getSourceFiles()) {
    const from = rel(file.fileName);
    if (!from.startsWith('src/') || from.endsWith('.test.ts')) continue;
    for (const statement of file.statements) {
      if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier) continue;
      const target = checker.getSymbolAtLocation(statement.moduleSpecifier)?.valueDeclaration;
      if (!target || !ts.isSourceFile(target)) continue;
      const face = rel(target.fileName);
      const names = used.get(face);
      if (!names || from.startsWith(`${dirname(face)}/`)) continue;
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause;
        if (clause?.name) names.add('default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) namespaceImports.push(`${from} → ${face}`);
        if (bindings && ts.isNamedImports(bindings)) {
          for (const el of bindings.elements) names.add((el.propertyName ?? el.name).text);
        }
      } else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        for (const el of statement.exportClause.elements) names.add((el.propertyName ?? el.name).text);
      } else {
        namespaceImports.push(`${from} → ${face}`);
      }
    }
  }
  expect(namespaceImports, 'import the names you use from a face, not the whole module').toEqual([]);

  const result = new Map<string, { exported: number; unused: string[] }>();
  for (const face of [...faceFiles].sort()) {
    const source = program.getSourceFile(join(ROOT, face));
    const symbol = source && checker.getSymbolAtLocation(source);
    const exported = symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
    const names = used.get(face)!;
    result.set(face, { exported: exported.length, unused: exported.filter((name) => !names.has(name)).sort() });
  }
  return result;
}

describe('narrow faces', () => {
  it("each folder's index.ts exports only what production code in other folders imports", () => {
    const report = unusedExports();
    expect(report.size).toBeGreaterThan(15);
    const unused = Object.fromEntries([...report].filter(([, r]) => r.unused.length > 0).map(([face, r]) => [face, r.unused]));
    expect(unused, 'drop these exports from the face (tests import the file that defines them)').toEqual({});
  }, 60_000);
});
