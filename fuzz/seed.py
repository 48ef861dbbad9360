#!/usr/bin/env python3
"""Write the seed inputs of every fuzz target into fuzz/seeds/<target>/.

The seeds come from the repository's own fixtures (never from ../shared). The
fuzzers grow and minimise their corpora from them into fuzz/corpus/<target>/,
which is kept in the repository; the seeds themselves are rebuilt by this script.

Run from the crate root: python3 fuzz/seed.py
"""

import hashlib
import io
import json
import pathlib
import tarfile
import gzip
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
DEMO = FIX / "inputs" / "demo"
OUT = ROOT / "fuzz" / "seeds"

# A seed larger than this slows every execution; the fuzzers run with a
# matching -max_len (fuzz/deep.sh).
MAX_LEN = 16384


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > MAX_LEN:
        return
    folder = OUT / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def files(folder, *suffixes):
    """The fixture files under `folder` (at any depth) with one of `suffixes`."""
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in suffixes and p.name != "README.md"
    )


def cases(input_kind):
    with open(FIX / "kinds" / "cases.jsonl", encoding="utf-8") as lines:
        for line in lines:
            case = json.loads(line)
            if case["input_kind"] == input_kind:
                yield case["input"]


def member(archive, name):
    with zipfile.ZipFile(archive) as z:
        return z.read(name)


def tiny_pdf(lines):
    """A one-page PDF with uncompressed text: small enough to mutate quickly."""
    body = "BT /F1 10 Tf 72 720 Td 12 TL\n"
    body += "".join(f"({t}) Tj T*\n" for t in lines) + "ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(body)} >>\nstream\n{body}\nendstream",
    ]
    out = "%PDF-1.4\n"
    offsets = []
    for number, obj in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{obj}\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n"
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    return out


def main():
    for p in files(FIX / "markdown", ".md", ".json"):
        put("markdown", p.read_bytes())
    for p in files(FIX / "answers", ".txt", ".md"):
        put("answer", p.read_bytes())
    for p in files(FIX / "csljson", ".json"):
        put("csljson", p.read_bytes())
    for text in cases("csl_json"):
        put("csljson", text)
    for p in files(FIX / "latex", ".tex") + files(DEMO, ".tex"):
        put("latex", p.read_bytes())
    for p in files(FIX / "bibtex", ".bib"):
        put("bibtex", p.read_bytes())
    for text in cases("bibtex"):
        put("bibtex", text)
    for text in cases("reference_string"):
        put("refstring", text)
    for p in files(DEMO, ".bbl"):
        put("bbl", p.read_bytes())

    put("pdf", (FIX / "pdf" / "scanned.pdf").read_bytes())
    put("pdf", tiny_pdf(["Introduction", "As shown by Smith [1], results hold."]))
    put("pdf", tiny_pdf([
        "References",
        "[1] Smith, J. (2020). A study of things. Nature 1, 2-3. doi:10.1000/xyz",
        "[2] Doe, A. and Roe, B. Deep learning. arXiv:1706.03762, 2017.",
    ]))

    docx = DEMO / "paper.docx"
    odt = DEMO / "paper.odt"
    put("docx", b"\x00" + (DEMO / "paper-zotero.docx").read_bytes())
    put("docx", b"\x00" + docx.read_bytes())
    put("docx", b"\x01" + member(docx, "word/document.xml"))
    put("docx", b"\x02" + member(docx, "word/footnotes.xml"))
    put("docx", b"\x03" + member(odt, "content.xml"))

    sources = [DEMO / "paper.tex", DEMO / "paper.bbl", DEMO / "paper-biblatex.tex"]
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sources:
            z.write(p, "paper/" + p.name)
    put("archive", b"\x00" + zipped.getvalue())
    tarred = io.BytesIO()
    with tarfile.open(fileobj=tarred, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for p in sources[:2]:
            t.add(p, p.name)
    put("archive", b"\x01" + tarred.getvalue())
    put("archive", b"\x02" + gzip.compress(tarred.getvalue(), mtime=0))


if __name__ == "__main__":
    main()
