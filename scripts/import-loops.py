#!/usr/bin/env python3
"""Import loops in the crate: files that import each other in a circle, and
top-level modules (src/<room>.rs or src/<room>/) that do.

    python3 scripts/import-loops.py          # from the crate root
    python3 scripts/import-loops.py --edges  # also every import inside each loop

An import is a `crate::…`, `super::…` or `self::…` path in a file's code (in `use`
lines, grouped ones included, and written out inline), outside comments and
`#[cfg(test)] mod tests`. It points at the deepest module file the path names.
Exits 0 always: this is a picture of the structure, not a check.
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

SRC = Path("src")


def module_of(path):
    """The module path (segments under `crate`) of a source file."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return tuple(parts)


def file_of(segments):
    """The file of the deepest module that `segments` name, and its depth."""
    found, folder = None, SRC
    for depth, segment in enumerate(segments):
        for candidate in (folder / f"{segment}.rs", folder / segment / "mod.rs"):
            if candidate.is_file():
                found, folder = (candidate, depth + 1), folder / segment
                break
        else:
            break
    return found


def code_of(text):
    """The text less comments and the unit-test module."""
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def expand(tree):
    """`a::{b, c::{d, e}}` → a::b, a::c::d, a::c::e."""
    tree = tree.strip()
    brace = tree.find("{")
    if brace < 0:
        return [tree] if tree else []
    prefix, inner = tree[:brace], tree[brace + 1 : tree.rfind("}")]
    items, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += c == "{"
        depth -= c == "}"
        if c == "," and depth == 0:
            items.append(inner[start:i])
            start = i + 1
    items.append(inner[start:])
    return [prefix + path for item in items for path in expand(item)]


def paths_in(code):
    for statement in re.findall(r"\buse\s+([^;]*);", code):
        yield from expand(re.sub(r"\s+", "", statement))
    yield from re.findall(r"\b(?:crate|super|self)(?:::\w+)+", code)


def absolute(module, path):
    segments = [s for s in path.split("::") if s and s not in ("*",)]
    segments = [s.split(" as ")[0] for s in segments]
    if not segments or segments[0] not in ("crate", "super", "self"):
        return None
    base = list(module)
    while segments and segments[0] in ("super", "self"):
        if segments.pop(0) == "super":
            base = base[:-1]
    if segments and segments[0] == "crate":
        base, segments = [], segments[1:]
    return tuple(base + segments)


def graph():
    edges = defaultdict(set)
    for path in sorted(SRC.rglob("*.rs")):
        module = module_of(path)
        for used in paths_in(code_of(path.read_text())):
            target = absolute(module, used)
            found = target and file_of(target)
            if found and found[0] != path:
                edges[path].add(found[0])
    return edges


def loops(edges):
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in list(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def room(path):
    parts = path.relative_to(SRC).parts
    return parts[0].removesuffix(".rs")


def report(title, components, edges, name, show_edges):
    print(f"{title}: {len(components)}")
    for component in components:
        members = set(component)
        inside = [(a, b) for a in component for b in sorted(edges.get(a, ())) if b in members]
        print(f"  {len(component)} in a loop, {len(inside)} imports inside it: "
              + ", ".join(name(c) for c in component))
        if show_edges:
            for a, b in inside:
                print(f"    {name(a)} -> {name(b)}")


def main():
    show_edges = "--edges" in sys.argv
    files = graph()
    report("file circles", loops(files), files, str, show_edges)
    rooms = defaultdict(set)
    for a, targets in files.items():
        for b in targets:
            if room(a) != room(b) and room(a) not in ("lib", "main"):
                rooms[room(a)].add(room(b))
    report("top-level module loops", loops(rooms), rooms, str, show_edges)


if __name__ == "__main__":
    main()
