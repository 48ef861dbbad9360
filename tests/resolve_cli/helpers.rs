//! Running the real `citeproof` binary against the mock world.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

use crate::bin_support;
use crate::support::{LoggedRequest, MockWorld, Source};

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The JSONL lines of `--format jsonl`.
    pub fn lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
            .collect()
    }

    /// The status of each line, in order.
    pub fn statuses(&self) -> Vec<String> {
        self.lines()
            .iter()
            .map(|l| l["status"].as_str().unwrap_or("?").to_string())
            .collect()
    }
}

/// Run `citeproof args…` with the world's base URLs, its rate limits lifted and a short
/// request timeout (each test passes its own cache choice).
pub fn citeproof(world: Option<&MockWorld>, args: &[&str]) -> Run {
    // Without a world, every source points at a closed port: a test that forgot to
    // go offline fails at once instead of reaching the network.
    let env = match world {
        Some(world) => world.env(),
        None => closed_world(),
    };
    let mut command = bin_support::citeproof_in_world(env);
    command.args(args).stdin(Stdio::null());
    let output = command.output().expect("run citeproof");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Every source's `CITEPROOF_<NAME>_URL` on the discard port of 127.0.0.1, where
/// nothing listens.
fn closed_world() -> Vec<(String, String)> {
    Source::ALL
        .iter()
        .filter_map(|s| s.env_name())
        .map(|name| {
            let path = name.to_ascii_lowercase();
            (
                format!("CITEPROOF_{name}_URL"),
                format!("http://127.0.0.1:9/{path}"),
            )
        })
        .collect()
}

/// `(code, key)` of every finding in a text report.
pub fn findings(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let code = line.split_once('[')?.1.split_once(']')?.0;
            let key = line.split_once('`')?.1.split_once('`')?.0;
            Some((code.to_string(), key.to_string()))
        })
        .collect()
}

/// Write `lines` to `dir/name`, one per line.
pub fn write_lines(dir: &Path, name: &str, lines: &[&str]) -> PathBuf {
    let path = dir.join(name);
    let mut file = std::fs::File::create(&path).expect("create input");
    for line in lines {
        writeln!(file, "{line}").expect("write input");
    }
    path
}

/// JSONL input `{"id", "reference"}` from `(id, reference)` pairs.
pub fn write_jsonl(dir: &Path, refs: &[(&str, &str)]) -> PathBuf {
    let lines: Vec<String> = refs
        .iter()
        .map(|(id, r)| serde_json::json!({"id": id, "reference": r}).to_string())
        .collect();
    let borrowed: Vec<&str> = lines.iter().map(String::as_str).collect();
    write_lines(dir, "refs.jsonl", &borrowed)
}

/// The line of `run` with this id.
pub fn line<'a>(lines: &'a [Value], id: &str) -> &'a Value {
    lines
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line for {id} in {lines:?}"))
}

/// Requests of a source whose (percent-decoded) path and query contain `needle`.
pub fn requests_with(world: &MockWorld, source: Source, needle: &str) -> Vec<LoggedRequest> {
    world
        .requests(source)
        .into_iter()
        .filter(|r| decoded(r).contains(needle))
        .collect()
}

/// The path and query of a request, percent-decoded.
pub fn decoded(request: &LoggedRequest) -> String {
    percent_encoding::percent_decode_str(&request.path_and_query)
        .decode_utf8_lossy()
        .into_owned()
}

/// Some reference strings to works of the fixture world.
pub mod refs {
    /// w001382, cited with its DOI.
    pub const RESNET_DOI: &str = "He K, Zhang X, Ren S, Sun J. Deep residual learning for image recognition. In: 2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR). 2016. doi:10.1109/cvpr.2016.90";
    /// w000003, cited with its DOI.
    pub const BRAIN_DOI: &str = "Jack CR, Lowe VJ, Senjem ML, et al. 11C PiB and structural MRI provide complementary information in imaging of Alzheimer's disease and amnestic mild cognitive impairment. Brain. 2008. doi:10.1093/brain/awm336";
    /// w000044, cited with its DOI.
    pub const TRAJECTORY_DOI: &str = "Saelens W, Cannoodt R, Todorov H, Saeys Y. A comparison of single-cell trajectory inference methods. Nature Biotechnology. 2019. doi:10.1038/s41587-019-0071-9";
    /// w002662, cited with its DOI.
    pub const TELOMERE_DOI: &str = "Bao Y, Prescott J, Yuan C, et al. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut. 2017. doi:10.1136/gutjnl-2016-312510";
    /// w000032, title only.
    pub const CONSCIOUS_TITLE: &str = "Oliveira AL. A blueprint for conscious machines. Proceedings of the National Academy of Sciences of the United States of America. 2022.";
    /// w000034, title only.
    pub const ENTROPY_TITLE: &str =
        "Kieffer J. A catalog of self-affine hierarchical entropy functions. Algorithms. 2011.";
    /// w001021: no identifier anywhere; only Semantic Scholar (and its landing page) has it.
    pub const TURING_TITLE: &str = "Turing, A. Checking a large routine. (1989).";
    /// No such work.
    pub const FABRICATED: &str = "Smith J, Doe A. Quantum gradient folding for sparse transformer attention heads. Advances in Neural Information Processing Systems. 2023.";
    /// No such work, with a DOI that does not exist.
    pub const FABRICATED_DOI: &str = "Lee K, Park S. Contrastive lattice pruning for federated speech encoders. IEEE Transactions on Neural Networks and Learning Systems. 2022. doi:10.1109/tnnls.2022.9876543";
    /// w003788, retracted, cited with its DOI and without the title prefix.
    pub const RETRACTED_DOI: &str = "Mattioli F, Porcaro C, Baldassarre G. A 1D CNN for high accuracy classification and transfer learning in motor imagery EEG-based brain-computer interface. Journal of Neural Engineering. 2021. doi:10.1088/1741-2552/ac4430";
    /// w000218 carries a (constructed) expression of concern.
    pub const CONCERN_TITLE: &str = "Bibby S, Jung J, Low YS, et al. A single residue in the yellow fever virus envelope protein modulates virion architecture and antigenicity. Nature Communications. 2025.";
    /// w000018: its only DOI is an arXiv DataCite DOI.
    pub const ARXIV_DOI: &str = "Ma W, Chen H, Zhang G, et al. 3DSRBench: A comprehensive 3D spatial reasoning benchmark. arXiv. 2024. doi:10.48550/arXiv.2412.07825";
}

/// `citeproof resolve INPUT --format jsonl --no-cache EXTRA…`.
pub fn resolve_jsonl(world: Option<&MockWorld>, input: &Path, extra: &[&str]) -> Run {
    let mut args = vec![
        "resolve",
        input.to_str().unwrap(),
        "--format",
        "jsonl",
        "--no-cache",
    ];
    args.extend_from_slice(extra);
    citeproof(world, &args)
}

/// `citeproof resolve INPUT --no-cache EXTRA…` (the text format).
pub fn resolve_text(world: Option<&MockWorld>, input: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["resolve", input.to_str().unwrap(), "--no-cache"];
    args.extend_from_slice(extra);
    citeproof(world, &args)
}

/// One field (`source` or `outcome`) of every entry of a line's `sources_tried`.
pub fn tried<'a>(line: &'a Value, field: &str) -> Vec<&'a str> {
    line["sources_tried"]
        .as_array()
        .expect("sources_tried")
        .iter()
        .map(|t| t[field].as_str().unwrap_or("?"))
        .collect()
}
