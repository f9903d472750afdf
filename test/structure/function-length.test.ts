import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// "No function over ~80 lines without a reason written at its top" (the house's size rule): a
// function in src/ longer than MAX_LINES fails here unless the comment right above it says why,
// in a sentence holding "long because".
const MAX_LINES = 80;
const SRC = join(import.meta.dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return '(anonymous)';
}

/** The comments just above the statement that holds the function. */
function leadingComments(node: ts.Node, text: string): string {
  let holder: ts.Node = node;
  while (holder.parent && !ts.isSourceFile(holder.parent) && !ts.isBlock(holder.parent) && !ts.isClassLike(holder.parent)) {
    holder = holder.parent;
  }
  return (ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end)).join('\n');
}

function longFunctions(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > MAX_LINES && !/long because/i.test(leadingComments(node, text))) {
          found.push(`${file.slice(SRC.length + 1)}: ${nameOf(node)} (${lines} lines)`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('function length', () => {
  it(`no function in src/ is over ${MAX_LINES} lines without a reason at its top`, () => {
    expect(longFunctions(), 'split it into named steps, or say above it why it is long ("long because …")').toEqual([]);
  });
});
