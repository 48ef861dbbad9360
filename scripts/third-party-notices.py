#!/usr/bin/env python3
"""Writes THIRD-PARTY-NOTICES.md: the licences of the third-party code inside what
citeproof distributes — the release binaries, the Python wheel (the `citeproof` and
`citeproof-python` crates and everything they link, for every release platform), the
VS Code extension (its production npm packages) and the container image (the binary).

    python3 scripts/third-party-notices.py            # rewrite THIRD-PARTY-NOTICES.md
    python3 scripts/third-party-notices.py --check    # exit 1 when it is out of date

Reads `cargo metadata` (Cargo.lock; crates are downloaded into cargo's registry when
missing) and editors/vscode/package-lock.json with the installed node_modules (run
`npm ci` there first). Each licence text is the one the package itself ships; a text
shared by several packages is printed once.
"""

import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "THIRD-PARTY-NOTICES.md"
# The platforms .github/workflows/release.yml builds.
TARGETS = [
    "x86_64-unknown-linux-musl",
    "aarch64-unknown-linux-musl",
    "x86_64-apple-darwin",
    "aarch64-apple-darwin",
    "x86_64-pc-windows-msvc",
]
DISTRIBUTED_CRATES = ["citeproof", "citeproof-python"]
LICENCE_FILE = re.compile(r"^(licen[cs]e|copying|notice|copyright|unlicense)([-_.].*)?$", re.IGNORECASE)


def fail(message):
    sys.exit(f"third-party-notices: {message}")


def licence_files(folder):
    """The licence texts a package ships at its top level, by file name."""
    texts = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and LICENCE_FILE.match(path.name):
            texts[path.name] = path.read_text(encoding="utf-8", errors="replace").strip()
    return texts


def rust_packages():
    """(name, version, licence, repository, {file: text}) of every crate linked into a
    distributed artefact: normal dependencies only (no build or dev dependencies)."""
    command = ["cargo", "metadata", "--format-version", "1", "--locked"]
    for target in TARGETS:
        command += ["--filter-platform", target]
    metadata = json.loads(subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    packages = {p["id"]: p for p in metadata["packages"]}
    nodes = {n["id"]: n for n in metadata["resolve"]["nodes"]}
    roots = [i for i in metadata["workspace_members"] if packages[i]["name"] in DISTRIBUTED_CRATES]
    if len(roots) != len(DISTRIBUTED_CRATES):
        fail(f"expected the workspace crates {DISTRIBUTED_CRATES}")
    seen, stack = set(roots), list(roots)
    while stack:
        for dep in nodes[stack.pop()]["deps"]:
            if any(kind["kind"] is None for kind in dep["dep_kinds"]) and dep["pkg"] not in seen:
                seen.add(dep["pkg"])
                stack.append(dep["pkg"])
    found = []
    for package_id in seen:
        package = packages[package_id]
        if package["source"] is None:  # the workspace itself
            continue
        folder = Path(package["manifest_path"]).parent
        found.append((package["name"], package["version"], package.get("license") or "(none declared)",
                      package.get("repository") or "", licence_files(folder)))
    return sorted(found, key=lambda p: (p[0], p[1]))


def npm_packages():
    """The same for the VS Code extension's production npm packages."""
    folder = ROOT / "editors" / "vscode"
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
    found = []
    for path, entry in sorted(lock["packages"].items()):
        if not path or entry.get("dev") or entry.get("devOptional"):
            continue
        installed = folder / path
        if not (installed / "package.json").is_file():
            fail(f"{installed} is missing: run `npm ci` in editors/vscode first")
        manifest = json.loads((installed / "package.json").read_text(encoding="utf-8"))
        repository = manifest.get("repository") or ""
        if isinstance(repository, dict):
            repository = repository.get("url", "")
        name = path.split("node_modules/")[-1]
        found.append((name, entry["version"], entry.get("license") or "(none declared)", repository,
                      licence_files(installed)))
    return found


def section(title, packages):
    """One table of the packages, then each distinct licence text once with its packages."""
    lines = [f"## {title}", "", "| package | version | licence |", "|---|---|---|"]
    by_text = defaultdict(list)
    bare = []
    for name, version, licence, repository, texts in packages:
        link = f"[{name}]({repository})" if repository.startswith("http") else name
        lines.append(f"| {link} | {version} | {licence} |")
        if not texts:
            bare.append(f"{name} {version} ({licence})")
        for file_name, text in texts.items():
            by_text[text].append(f"{name} {version} ({file_name})")
    lines.append("")
    if bare:
        lines += ["These packages ship no licence file; their declared licence applies (the standard "
                  "texts of MIT and Apache-2.0 are citeproof's own LICENSE-MIT and LICENSE-APACHE): "
                  + ", ".join(bare) + ".", ""]
    for text, owners in sorted(by_text.items(), key=lambda item: item[1][0]):
        lines += ["### " + ", ".join(owners), "", "```text", text.replace("```", "'''"), "```", ""]
    return lines


def render():
    rust = rust_packages()
    npm = npm_packages()
    counts = defaultdict(int)
    for package in rust + npm:
        counts[package[2]] += 1
    lines = [
        "# Third-party notices",
        "",
        "citeproof is MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE). Its release binaries, Python "
        "wheels, container image and VS Code extensions contain the third-party software below, each "
        "under its own licence. Written by `scripts/third-party-notices.py` from Cargo.lock and "
        "editors/vscode/package-lock.json (do not edit by hand; CI checks it is current).",
        "",
        "| licence | packages |",
        "|---|---|",
    ]
    lines += [f"| {licence} | {count} |" for licence, count in sorted(counts.items())]
    lines.append("")
    lines += section(f"Rust crates ({len(rust)})", rust)
    lines += section(f"npm packages of the VS Code extension ({len(npm)})", npm)
    return "\n".join(lines).rstrip() + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        fail("usage: third-party-notices.py [--check]")
    text = render()
    if check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            fail(f"{OUTPUT.name} is out of date: run python3 scripts/third-party-notices.py and commit it")
        print(f"{OUTPUT.name} is current")
    else:
        OUTPUT.write_text(text, encoding="utf-8")
        print(f"wrote {OUTPUT.name} ({len(text) // 1024} KiB)")


if __name__ == "__main__":
    main()
