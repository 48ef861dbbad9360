#!/usr/bin/env bash
# The PDF benchmark's corpus: one manuscript (scripts/pdf-bench/body.tex, citing every
# entry of refs.bib, with an appendix after the reference list) typeset with many
# bibliography styles in one and two columns, and through pandoc with CSL styles (as
# PDF in one and two columns, and as Word .docx).
# Writes OUT/<name>.pdf or OUT/<name>.docx, OUT/<name>.bib (the gold: the entries the
# document cites) and OUT/manifest.tsv (name, bibliography style, columns, hyperref,
# format: pdf or docx); then
#   cargo run --release --example pdf_bench -- OUT
# prints the figures.
#
# Needs TeX Live and pandoc from Debian:
#   apt-get install --no-install-recommends texlive-latex-base texlive-latex-recommended \
#     texlive-latex-extra texlive-publishers texlive-bibtex-extra texlive-fonts-recommended \
#     biber pandoc citation-style-language-styles
# (acmart needs texlive-fonts-extra and texlive-plain-generic too; its documents are
# skipped without them.)
#
# Usage: scripts/pdf-bench.sh OUT [--fixtures | --speed]
#   --fixtures  writes only the small test PDFs of fixtures/pdf/, into OUT/fixtures.
#   --speed     writes only OUT/paper-2col.pdf (~30 pages) and OUT/thesis-1col.pdf
#               (~300 pages), for `pdf_bench --speed`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$here/pdf-bench"
out="${1:?usage: scripts/pdf-bench.sh OUT [--fixtures]}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
csl_dir=/usr/share/citation-style-language/styles

: > "$out/manifest.tsv"
failed=0

# typeset DIR ENGINE: DIR/main.tex through pdflatex, bibtex or biber, pdflatex twice.
typeset() {
  (
    cd "$1"
    pdflatex -interaction=nonstopmode -halt-on-error main.tex >build.log 2>&1
    # bibtex exits non-zero on style warnings (an empty field): the PDF decides.
    if [ "$2" = biber ]; then biber main >>build.log 2>&1; else bibtex main >>build.log 2>&1 || true; fi
    pdflatex -interaction=nonstopmode -halt-on-error main.tex >>build.log 2>&1
    pdflatex -interaction=nonstopmode -halt-on-error main.tex >>build.log 2>&1
  )
}

# compile NAME STYLE COLUMNS HYPERREF ENGINE: $work/NAME/main.tex is written; runs
# pdflatex with bibtex or biber and copies the PDF and the gold .bib out.
compile() {
  local name="$1" style="$2" columns="$3" hyper="$4" engine="$5" dir="$work/$1"
  cp "$src/refs.bib" "$dir/refs.bib"
  typeset "$dir" "$engine" || { echo "  $name: failed (see below)"; tail -20 "$dir/build.log"; failed=$((failed + 1)); return 0; }
  cp "$dir/main.pdf" "$out/$name.pdf"
  cp "$src/refs.bib" "$out/$name.bib"
  printf '%s\t%s\t%s\t%s\tpdf\n' "$name" "$style" "$columns" "$hyper" >>"$out/manifest.tsv"
  echo "  $name"
}

# latex_doc NAME CLASS_LINE PREAMBLE BIBLIOGRAPHY STYLE COLUMNS HYPERREF ENGINE
latex_doc() {
  local name="$1" class="$2" preamble="$3" bibliography="$4"
  mkdir -p "$work/$name"
  {
    echo "$class"
    # Articles in one column in Computer Modern (OT1, accents drawn over their
    # letters), in two columns in Latin Modern (T1, the usual modern setting); IEEEtran
    # in Times (T1).
    case "$2" in
      *IEEEtran*) echo '\usepackage[T1]{fontenc}' ;;
      *article*) [ "$6" = 2 ] && echo '\usepackage{lmodern}\usepackage[T1]{fontenc}' ;;
    esac
    echo '\usepackage[utf8]{inputenc}'
    echo "$preamble"
    [ "$7" = yes ] && echo '\usepackage[hidelinks]{hyperref}'
    echo '\title{Reading Reference Lists from Typeset Manuscripts}'
    echo '\author{A. Reviewer and B. Editor}'
    echo '\begin{document}'
    echo '\maketitle'
    cat "$src/body.tex"
    echo "$bibliography"
    echo '\appendix'
    cat "$src/appendix.tex"
    echo '\end{document}'
  } >"$work/$name/main.tex"
  compile "$name" "$5" "$6" "$7" "$8"
}

corpus() {
echo "== LaTeX"
for cols in 1 2; do
  opt=""; [ "$cols" = 2 ] && opt="twocolumn"
  latex_doc "plain-${cols}col" "\\documentclass[$opt]{article}" '\usepackage{url}' \
    '\bibliographystyle{plain}\bibliography{refs}' plain "$cols" $([ "$cols" = 2 ] && echo yes || echo no) bibtex
  latex_doc "unsrtnat-${cols}col" "\\documentclass[$opt]{article}" '\usepackage[numbers]{natbib}\usepackage{url}' \
    '\bibliographystyle{unsrtnat}\bibliography{refs}' unsrtnat "$cols" $([ "$cols" = 1 ] && echo yes || echo no) bibtex
  latex_doc "apalike-${cols}col" "\\documentclass[$opt]{article}" '\usepackage{natbib}\usepackage{url}' \
    '\bibliographystyle{apalike}\bibliography{refs}' apalike "$cols" $([ "$cols" = 2 ] && echo yes || echo no) bibtex
  latex_doc "splncs04-${cols}col" "\\documentclass[$opt]{article}" '\usepackage{url}\providecommand{\doi}[1]{\url{https://doi.org/#1}}' \
    '\bibliographystyle{splncs04}\bibliography{refs}' splncs04 "$cols" $([ "$cols" = 1 ] && echo yes || echo no) bibtex
  latex_doc "biblatex-authoryear-${cols}col" "\\documentclass[$opt]{article}" \
    '\usepackage[style=authoryear,backend=biber]{biblatex}\addbibresource{refs.bib}' \
    '\printbibliography' biblatex-authoryear "$cols" $([ "$cols" = 2 ] && echo yes || echo no) biber
  latex_doc "biblatex-numeric-${cols}col" "\\documentclass[$opt]{article}" \
    '\usepackage[style=numeric,backend=biber]{biblatex}\addbibresource{refs.bib}' \
    '\printbibliography' biblatex-numeric "$cols" $([ "$cols" = 1 ] && echo yes || echo no) biber
done
latex_doc "ieeetran-2col" '\documentclass[conference]{IEEEtran}' '\usepackage{cite}\usepackage{url}' \
  '\bibliographystyle{IEEEtran}\bibliography{refs}' IEEEtran 2 no bibtex
latex_doc "ieeetran-2col-hyperref" '\documentclass[journal]{IEEEtran}' '\usepackage{url}' \
  '\bibliographystyle{IEEEtran}\bibliography{refs}' IEEEtran 2 yes bibtex
latex_doc "ieeetran-1col" '\documentclass[journal,onecolumn]{IEEEtran}' '\usepackage{url}' \
  '\bibliographystyle{IEEEtran}\bibliography{refs}' IEEEtran 1 no bibtex
latex_doc "llncs-1col" '\documentclass{llncs}' '\usepackage{url}' \
  '\bibliographystyle{splncs04}\bibliography{refs}' splncs04 1 yes bibtex
if kpsewhich libertine.sty >/dev/null && kpsewhich binhex.tex >/dev/null; then
  for variant in sigconf:2 acmsmall:1; do
    fmt="${variant%%:*}"; cols="${variant##*:}"
    mkdir -p "$work/acm-$fmt"
    {
      echo "\\documentclass[$fmt]{acmart}"
      echo '\title{Reading Reference Lists from Typeset Manuscripts}'
      echo '\author{A. Reviewer}\affiliation{\institution{Some University}\country{Nowhere}}'
      echo '\begin{document}'
      echo '\maketitle'
      cat "$src/body.tex"
      echo '\bibliographystyle{ACM-Reference-Format}\bibliography{refs}'
      echo '\appendix'
      cat "$src/appendix.tex"
      echo '\end{document}'
    } >"$work/acm-$fmt/main.tex"
    compile "acm-$fmt" ACM-Reference-Format "$cols" yes bibtex
  done
else
  echo "  acmart skipped: libertine.sty or binhex.tex missing (apt-get install texlive-fonts-extra texlive-plain-generic)"
fi

echo "== Markdown through pandoc (PDF and Word)"
# The same manuscript in Markdown: \cite{a,b} becomes [@a; @b], sections become headings.
sed -E -e 's/~?\\cite\{([^}]*)\}/ [@\1]/g' -e 's/\\section\{([^}]*)\}/# \1/' \
  -e 's/\\LaTeX/LaTeX/g' "$src/body.tex" | sed -E ':a; s/(\[@[^],]*),([^]]*\])/\1; @\2/; ta' >"$work/body.md"
sed -E -e 's/\\section\{([^}]*)\}/# \1/' "$src/appendix.tex" >"$work/appendix.md"
for csl in ieee apa nature vancouver chicago-author-date harvard-cite-them-right springer-basic-brackets elsevier-harvard; do
  for cols in 1 2; do
    name="pandoc-$csl-${cols}col"
    [ -f "$csl_dir/$csl.csl" ] || { echo "  $name skipped: $csl_dir/$csl.csl missing"; continue; }
    mkdir -p "$work/$name"
    {
      printf -- '---\ntitle: Reading Reference Lists from Typeset Manuscripts\nauthor: A. Reviewer\n'
      printf 'bibliography: refs.bib\ncsl: %s\nlink-citations: true\n' "$csl_dir/$csl.csl"
      [ "$cols" = 2 ] && printf 'classoption: twocolumn\n'
      printf -- '---\n\n'
      cat "$work/body.md"
      printf '\n# References\n\n::: {#refs}\n:::\n\n'
      cat "$work/appendix.md"
    } >"$work/$name/main.md"
    cp "$src/refs.bib" "$work/$name/refs.bib"
    if (cd "$work/$name" && pandoc main.md --citeproc -o main.pdf >build.log 2>&1); then
      cp "$work/$name/main.pdf" "$out/$name.pdf"
      cp "$src/refs.bib" "$out/$name.bib"
      printf '%s\t%s\t%s\t%s\tpdf\n' "$name" "csl:$csl" "$cols" yes >>"$out/manifest.tsv"
      echo "  $name"
    else
      echo "  $name: failed"; tail -5 "$work/$name/build.log"; failed=$((failed + 1))
    fi
  done
  # The same Markdown as Word (columns do not apply): OUT/pandoc-STYLE.docx, its gold
  # .bib and its source .md (where the bench counts the citations written).
  name="pandoc-$csl"
  [ -d "$work/$name-1col" ] || continue
  if (cd "$work/$name-1col" && pandoc main.md --citeproc -o main.docx >>build.log 2>&1); then
    cp "$work/$name-1col/main.docx" "$out/$name.docx"
    cp "$work/$name-1col/main.md" "$out/$name.md"
    cp "$src/refs.bib" "$out/$name.bib"
    printf '%s\t%s\t%s\t%s\tdocx\n' "$name" "csl:$csl" - yes >>"$out/manifest.tsv"
    echo "  $name.docx"
  else
    echo "  $name.docx: failed"; tail -5 "$work/$name-1col/build.log"; failed=$((failed + 1))
  fi
done

echo "$(wc -l <"$out/manifest.tsv") documents in $out, $failed failed"

}

[ -n "${2:-}" ] || corpus

if [ "${2:-}" = "--speed" ]; then
  # For the speed figures: a two-column paper of about 30 pages and a one-column
  # thesis of about 300, the manuscript's sections repeated.
  echo "== speed documents"
  speed_doc() {
    local name="$1" class="$2" repeats="$3" dir="$work/$1"
    mkdir -p "$dir"
    {
      echo "$class"
      echo '\usepackage{lmodern}\usepackage[T1]{fontenc}\usepackage{url}\usepackage[hidelinks]{hyperref}'
      echo '\begin{document}'
      for k in $(seq "$repeats"); do
        case "$class" in *report*) echo "\\chapter{Part $k}" ;; esac
        cat "$src/body.tex"
      done
      echo '\bibliographystyle{plain}\bibliography{refs}'
      echo '\end{document}'
    } >"$dir/main.tex"
    compile "$name" plain speed yes bibtex
  }
  : >"$out/manifest.tsv"
  speed_doc paper-2col '\documentclass[twocolumn]{article}' 29
  speed_doc thesis-1col '\documentclass{report}' 150
  exit 0
fi
[ "${2:-}" = "--fixtures" ] || exit 0
# The test fixtures (fixtures/pdf/): small documents, one font, compressed.
echo "== fixtures"
fx="$out/fixtures"
mkdir -p "$fx"
fixture() {
  local name="$1" dir="$work/fx-$1"
  mkdir -p "$dir"
  cat >"$dir/main.tex"
  cp "$src/refs.bib" "$dir/refs.bib"
  typeset "$dir" bibtex || { tail -20 "$dir/build.log"; exit 1; }
  cp "$dir/main.pdf" "$fx/$name.pdf"
}
# Numbered, two columns, hyperref (cite.<key> destinations, DOI links), a running
# header, the list crossing from the left column to the right one, an appendix after.
fixture numbered-2col <<'TEX'
\documentclass[twocolumn]{article}
\pdfcompresslevel=9 \pdfobjcompresslevel=2
\usepackage[numbers]{natbib}
\usepackage[hidelinks]{hyperref}
\newcommand{\doi}[1]{\url{https://doi.org/#1}}
\pagestyle{myheadings}\markright{Reading Reference Lists}
\begin{document}
\section{Introduction}
Attention models \cite{vaswani2017attention} replaced recurrent units \cite{hochreiter1997long}.
Residual networks \cite{he2016deep} and dropout \cite{srivastava2014dropout} are standard.
\clearpage
\section{Method}
We follow GROBID \cite{lopez2009grobid} and CERMINE \cite{tkaczyk2015cermine}.
\clearpage
\vspace*{0.7\textheight}
\bibliographystyle{unsrtnat}
\bibliography{refs}
\appendix
\section{Settings}
1. The learning rate was 0.001 in 2021.
\end{document}
TEX
# Author-year, one column, no hyperref, the list crossing a page, an appendix after.
fixture authoryear-1col <<'TEX'
\documentclass{article}
\pdfcompresslevel=9 \pdfobjcompresslevel=2
\usepackage{natbib}
\pagestyle{plain}
\begin{document}
\section{Introduction}
Deep learning \citep{lecun2015deep} builds on long short-term memory \citep{hochreiter1997long}
and on random forests \citep{breiman2001random}.
\clearpage
\section{Discussion}
Citation distortions \citep{greenberg2009citation} and false findings \citep{ioannidis2005most}.
\clearpage
\vspace*{0.75\textheight}
\bibliographystyle{apalike}
\bibliography{refs}
\appendix
\section{Supplementary Material}
Runs from 2021 and 2022 are listed here.
\end{document}
TEX
# The same manuscript as .tex + .bib (committed in fixtures/pdf/manuscript) and as PDF.
mkdir -p "$work/fx-manuscript"
cp "$here/../fixtures/pdf/manuscript/main.tex" "$here/../fixtures/pdf/manuscript/refs.bib" "$work/fx-manuscript/"
typeset "$work/fx-manuscript" bibtex || { tail -20 "$work/fx-manuscript/build.log"; exit 1; }
cp "$work/fx-manuscript/main.pdf" "$fx/manuscript.pdf"
# Protected with a user password: the reader says so.
qpdf --encrypt secret secret 256 -- "$fx/authoryear-1col.pdf" "$fx/encrypted.pdf"
# Encrypted with an owner password only (printing and copying limited): readable.
qpdf --encrypt "" owner 256 -- "$fx/authoryear-1col.pdf" "$fx/owner-password.pdf"
# Cut in the middle: the cross-reference table and half the objects are gone.
size=$(stat -c %s "$fx/numbered-2col.pdf")
head -c $((size / 2)) "$fx/numbered-2col.pdf" >"$fx/truncated.pdf"
# A scan: one page holding an image and no text; qpdf writes the cross-references.
python3 - "$work/scan-raw.pdf" <<'PY'
import sys, zlib
pixels = bytes((x * 7 + y * 13) % 256 for y in range(64) for x in range(64))
image = zlib.compress(pixels)
content = b"q 500 0 0 700 50 50 cm /Im0 Do Q"
objects = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>",
    b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
    b"<< /Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % len(image) + image + b"\nendstream",
]
out = bytearray(b"%PDF-1.4\n")
offsets = []
for k, body in enumerate(objects, 1):
    offsets.append(len(out))
    out += b"%d 0 obj\n" % k + body + b"\nendobj\n"
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
for o in offsets:
    out += b"%010d 00000 n \n" % o
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
open(sys.argv[1], "wb").write(out)
PY
qpdf "$work/scan-raw.pdf" "$fx/scanned.pdf"
ls -l "$fx"
