//! The citation commands a LaTeX file may use: the configured names, their
//! capitalised forms, and wrappers the document defines itself.

use std::collections::HashMap;

/// How one citation command reads its arguments and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct CiteCommand {
    /// biblatex multicite form: `\cites(pre)(post)[a][b]{k1}[c]{k2}`.
    pub multi: bool,
    /// The citation is part of the sentence (`\citet`, `\textcite`).
    pub narrative: bool,
    /// `\nocite`: adds entries to the bibliography without citing them in the text.
    pub nocite: bool,
    /// Mandatory arguments before the key list (a wrapper `\x{text}{keys}`).
    pub before: usize,
}

impl CiteCommand {
    fn for_name(name: &str) -> CiteCommand {
        let lower = name.to_ascii_lowercase();
        CiteCommand {
            multi: lower.ends_with("cites"),
            narrative: matches!(
                lower.as_str(),
                "citet" | "citealt" | "citeauthor" | "textcite" | "textcites" | "citetitle"
            ),
            nocite: lower == "nocite",
            before: 0,
        }
    }
}

/// Citation command names (without backslash) to their meaning.
#[derive(Debug, Clone, Default)]
pub(super) struct CiteTable {
    map: HashMap<String, CiteCommand>,
    /// Per first byte, a bit per name length (31 = longer): most commands
    /// (`\emph`, `\label`) are ruled out without hashing their name.
    lengths: Vec<u32>,
}

impl CiteTable {
    /// The configured names, each also in its capitalised form (`\Citet`).
    pub fn new<S: AsRef<str>>(names: &[S]) -> CiteTable {
        let mut table = CiteTable::default();
        for name in names {
            let name = name.as_ref().trim_start_matches('\\');
            if !name.is_empty() {
                table.add(name, CiteCommand::for_name(name));
            }
        }
        table
    }

    /// Add a command (and its capitalised form) that behaves like `like`.
    pub fn add(&mut self, name: &str, like: CiteCommand) {
        self.insert(name.to_string(), like);
        let mut chars = name.chars();
        if let Some(first) = chars.next().filter(char::is_ascii_lowercase) {
            let capitalised: String = first.to_ascii_uppercase().to_string() + chars.as_str();
            if !self.map.contains_key(&capitalised) {
                self.insert(capitalised, like);
            }
        }
    }

    fn insert(&mut self, name: String, like: CiteCommand) {
        if self.lengths.is_empty() {
            self.lengths = vec![0; 256];
        }
        let (first, bit) = Self::slot(&name);
        self.lengths[first] |= bit;
        self.map.insert(name, like);
    }

    fn slot(name: &str) -> (usize, u32) {
        let first = name.as_bytes().first().copied().unwrap_or(0) as usize;
        (first, 1 << name.len().min(31))
    }

    pub fn get(&self, name: &str) -> Option<CiteCommand> {
        let (first, bit) = Self::slot(name);
        if self
            .lengths
            .get(first)
            .is_none_or(|lengths| lengths & bit == 0)
        {
            return None;
        }
        self.map.get(name).copied()
    }
}

/// Environments whose content is not LaTeX text: skipped whole.
pub(super) fn is_verbatim_env(name: &str) -> bool {
    matches!(
        name,
        "verbatim"
            | "verbatim*"
            | "Verbatim"
            | "Verbatim*"
            | "BVerbatim"
            | "LVerbatim"
            | "lstlisting"
            | "minted"
            | "comment"
            | "filecontents"
            | "filecontents*"
            | "luacode"
            | "luacode*"
            | "pycode"
            | "sageblock"
            | "sagesilent"
    )
}

/// Display-math environments: their content is not prose.
pub(super) fn is_math_env(name: &str) -> bool {
    matches!(
        name.trim_end_matches('*'),
        "equation"
            | "align"
            | "alignat"
            | "flalign"
            | "gather"
            | "multline"
            | "eqnarray"
            | "displaymath"
            | "math"
            | "dmath"
            | "tikzpicture"
            | "pgfpicture"
            | "picture"
    )
}

/// How many mandatory arguments an environment's `\begin` takes that are not text.
pub(super) fn env_arguments(name: &str) -> usize {
    match name.trim_end_matches('*') {
        "tabular" | "array" | "longtable" | "supertabular" | "minipage" | "multicols"
        | "thebibliography" | "subfigure" | "tabulary" => 1,
        "tabularx" | "wrapfigure" | "wraptable" | "tabu" => 2,
        _ => 0,
    }
}

/// What the claim builder does with a command's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProseRole {
    /// Its `n` mandatory arguments (and any optional ones) are not text: `\label{x}`.
    Drop(usize),
    /// Its argument is text of its own (a footnote, a caption): a separate block.
    Aside,
    /// Sectioning: ends the paragraph; its title is a block of its own.
    Heading,
    /// Ends the current block (`\item`, `\par`).
    Break,
    /// Its argument is copied as written, not read as LaTeX (`\url{…}`).
    Literal,
    /// Stands for a space (`\quad`, `\newline`).
    Space,
}

pub(super) fn prose_role(name: &str) -> Option<ProseRole> {
    use ProseRole::*;
    Some(match name {
        "label" | "ref" | "eqref" | "pageref" | "autoref" | "Autoref" | "cref" | "Cref"
        | "vref" | "nameref" | "cpageref" | "Cpageref" | "autopageref" | "index" | "glossary"
        | "todo" | "vspace" | "hspace" | "vskip" | "hskip" | "pagestyle" | "thispagestyle"
        | "color" | "pagecolor" | "includegraphics" | "usepackage" | "RequirePackage"
        | "documentclass" | "bibliographystyle" | "bibliography" | "nobibliography"
        | "addbibresource" | "printbibliography" | "input" | "include" | "subfile"
        | "includeonly" | "hypersetup" | "graphicspath" | "linespread" | "href" | "textcolor"
        | "colorbox" | "raisebox" | "hyperlink" | "hypertarget" | "phantom" | "hphantom"
        | "vphantom" | "marginnote" | "enlargethispage" | "captionsetup" | "resizebox"
        | "scalebox" | "tag" | "setlength" | "addtolength" | "setcounter" | "addtocounter"
        | "definecolor" | "rule" | "import" | "subimport" | "newcounter" | "cline" | "cmidrule" => {
            Drop(drop_count(name))
        }
        "footnote" | "footnotetext" | "caption" | "captionof" | "thanks" | "marginpar"
        | "subcaption" => Aside,
        "section" | "subsection" | "subsubsection" | "paragraph" | "subparagraph" | "chapter"
        | "part" | "title" | "subtitle" | "frametitle" | "addsec" | "minisec" => Heading,
        "item" | "par" | "bibitem" | "maketitle" | "newpage" | "clearpage" | "cleardoublepage"
        | "pagebreak" | "bigskip" | "medskip" | "smallskip" | "vfill" | "noindent"
        | "tableofcontents" | "appendix" | "centering" | "hline" | "toprule" | "midrule"
        | "bottomrule" => Break,
        "url" | "path" | "nolinkurl" => Literal,
        "quad" | "qquad" | "newline" | "linebreak" | "hfill" | "enspace" | "thinspace"
        | "space" | "xspace" => Space,
        _ => return None,
    })
}

/// Text-mode symbols written as commands (`\textunderscore`): their character.
pub(super) fn symbol_text(name: &str) -> Option<&'static str> {
    Some(match name {
        "textunderscore" => "_",
        "textasciitilde" => "~",
        "textbackslash" => "\\",
        "textbar" => "|",
        "textless" => "<",
        "textgreater" => ">",
        "textasciicircum" => "^",
        "textbullet" => "•",
        "textdegree" => "°",
        "textpercent" => "%",
        "textdollar" => "$",
        "textquotedblleft" | "textquotedblright" => "\"",
        "S" => "§",
        "P" => "¶",
        "dag" => "†",
        "ddag" => "‡",
        "copyright" => "©",
        "pounds" => "£",
        "euro" => "€",
        _ => return None,
    })
}

/// Mandatory arguments of a `Drop` command that are not text.
/// For `\href`, `\textcolor`, `\resizebox` … the text is the last argument, read
/// as prose after the dropped ones.
fn drop_count(name: &str) -> usize {
    match name {
        "setlength" | "addtolength" | "setcounter" | "addtocounter" | "rule" | "import"
        | "subimport" | "resizebox" => 2,
        "definecolor" => 3,
        _ => 1,
    }
}
