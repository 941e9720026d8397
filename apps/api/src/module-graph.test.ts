import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The API's units must not import each other in a circle (decision 076): a unit is a folder under
 * `modules/`, or a top-level folder of `src/` (`lib`, `models`, `rag`, `plugins` …). The graph is
 * read from the import statements of the source files (tests excluded: they may reach anywhere).
 */
const SRC = path.dirname(fileURLToPath(import.meta.url));

/**
 * Arrows that still close a cycle, each to be turned around or removed; the list only shrinks (it
 * is empty now: keep it so). The check leaves them out, and fails when one no longer exists.
 */
const KNOWN_BACK_EDGES: string[] = [];

type Graph = Map<string, Map<string, string>>;

function unitOf(file: string): string | null {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts[0] === 'modules') return parts.length > 2 ? `modules/${parts[1]}` : null;
  return parts.length > 1 ? parts[0]! : null;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** unit → unit it imports → one file that does (to name in a failure). */
function moduleGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = unitOf(file);
    if (!from) continue;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(SPECIFIERS)) {
      const to = unitOf(path.resolve(path.dirname(file), match[1]!));
      if (!to || to === from) continue;
      const targets = graph.get(from) ?? new Map<string, string>();
      if (!targets.has(to)) targets.set(to, path.relative(SRC, file));
      graph.set(from, targets);
    }
  }
  return graph;
}

/** One cycle per strongly connected component of more than one unit (Tarjan), as a path. */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (unit: string) => {
    index.set(unit, next);
    low.set(unit, next++);
    stack.push(unit);
    for (const to of graph.get(unit)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(unit, Math.min(low.get(unit)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(unit, Math.min(low.get(unit)!, index.get(to)!));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const component = new Set<string>();
    let member: string;
    do {
      member = stack.pop()!;
      component.add(member);
    } while (member !== unit);
    if (component.size > 1) found.push(cycleWithin(graph, component, unit));
  };
  for (const unit of graph.keys()) if (!index.has(unit)) visit(unit);
  return found;
}

/** A shortest way from `start` back to itself inside its component (breadth first). */
function cycleWithin(graph: Graph, component: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const unit = queue.shift()!;
    for (const to of graph.get(unit)?.keys() ?? []) {
      if (!component.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, unit);
      if (to === start) {
        const way = [start];
        for (let at = unit; at !== start; at = cameFrom.get(at)!) way.unshift(at);
        return [start, ...way];
      }
      queue.push(to);
    }
  }
  return [start];
}

const describeEdge = (graph: Graph, from: string, to: string) =>
  `${from} -> ${to} (${graph.get(from)?.get(to) ?? '?'})`;

describe('the API module graph', () => {
  const graph = moduleGraph();

  it('has no cycle besides the known back edges', () => {
    const pruned: Graph = new Map(
      [...graph].map(([from, targets]) => [
        from,
        new Map([...targets].filter(([to]) => !KNOWN_BACK_EDGES.includes(`${from} -> ${to}`))),
      ]),
    );
    const described = cycles(pruned).map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => describeEdge(graph, cycle[i]!, to))
        .join('\n  '),
    );
    expect(described, `import cycles:\n  ${described.join('\n\n  ')}`).toEqual([]);
  });

  it('lists only back edges that still exist', () => {
    const gone = KNOWN_BACK_EDGES.filter((edge) => {
      const [from, to] = edge.split(' -> ');
      return !graph.get(from!)?.has(to!);
    });
    expect(gone, 'no longer imported: take them off KNOWN_BACK_EDGES').toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const circle: Graph = new Map([
      ['a', new Map([['b', 'a.ts']])],
      ['b', new Map([['c', 'b.ts']])],
      ['c', new Map([['a', 'c.ts']])],
      ['d', new Map([['a', 'd.ts']])],
    ]);
    expect(cycles(circle)).toEqual([['a', 'b', 'c', 'a']]);
  });
});
