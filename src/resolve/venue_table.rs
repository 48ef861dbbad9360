//! Venues known by an acronym: major conferences (and a few journals) whose records
//! and citations use unrelated strings — `NeurIPS` / `NIPS` / `Advances in Neural
//! Information Processing Systems 36`, `CVPR` / `2023 IEEE/CVF Conference on Computer
//! Vision and Pattern Recognition (CVPR)`, `PNAS` / `Proceedings of the National
//! Academy of Sciences`. Venues with ordinary ISO 4 abbreviations need no entry:
//! `venues::abbreviates` derives those word by word.

/// One venue: its acronyms (folded, lowercase) and the phrases of its full names
/// (matched as consecutive content words, stop words ignored).
pub struct KnownVenue {
    pub acronyms: &'static [&'static str],
    pub names: &'static [&'static str],
}

const fn v(acronyms: &'static [&'static str], names: &'static [&'static str]) -> KnownVenue {
    KnownVenue { acronyms, names }
}

pub const KNOWN_VENUES: &[KnownVenue] = &[
    // Machine learning and AI.
    v(
        &["neurips", "nips"],
        &[
            "neural information processing systems",
            "advances in neural information processing systems",
        ],
    ),
    v(&["icml"], &["international conference on machine learning"]),
    v(
        &["iclr"],
        &["international conference on learning representations"],
    ),
    v(
        &["aaai"],
        &[
            "aaai conference on artificial intelligence",
            "national conference on artificial intelligence",
        ],
    ),
    v(
        &["ijcai"],
        &["international joint conference on artificial intelligence"],
    ),
    v(
        &["uai"],
        &["conference on uncertainty in artificial intelligence"],
    ),
    v(
        &["aistats"],
        &["international conference on artificial intelligence and statistics"],
    ),
    v(
        &["colt"],
        &[
            "conference on learning theory",
            "annual conference computational learning theory",
        ],
    ),
    v(&["corl"], &["conference on robot learning"]),
    v(&["tmlr"], &["transactions on machine learning research"]),
    v(&["jmlr"], &["journal of machine learning research"]),
    v(
        &["tpami", "pami"],
        &["transactions on pattern analysis and machine intelligence"],
    ),
    v(
        &["tnnls"],
        &["transactions on neural networks and learning systems"],
    ),
    v(&["kdd", "sigkdd"], &["knowledge discovery and data mining"]),
    v(&["wsdm"], &["web search and data mining"]),
    v(&["cikm"], &["information and knowledge management"]),
    v(&["icdm"], &["international conference on data mining"]),
    v(&["recsys"], &["conference on recommender systems"]),
    v(
        &["sigir"],
        &["research and development in information retrieval"],
    ),
    v(
        &["ijcnn"],
        &["international joint conference on neural networks"],
    ),
    v(
        &["icmla"],
        &["international conference on machine learning and applications"],
    ),
    v(
        &["ecml", "pkdd", "ecmlpkdd"],
        &[
            "european conference on machine learning",
            "principles and practice of knowledge discovery in databases",
        ],
    ),
    v(&["acml"], &["asian conference on machine learning"]),
    v(
        &["aamas"],
        &[
            "autonomous agents and multiagent systems",
            "autonomous agents and multi agent systems",
        ],
    ),
    // Computer vision, graphics, multimedia.
    v(
        &["cvpr", "cvprw"],
        &["computer vision and pattern recognition"],
    ),
    v(
        &["iccv", "iccvw"],
        &["international conference on computer vision"],
    ),
    v(&["eccv"], &["european conference on computer vision"]),
    v(
        &["wacv"],
        &["winter conference on applications of computer vision"],
    ),
    v(&["bmvc"], &["british machine vision conference"]),
    v(&["accv"], &["asian conference on computer vision"]),
    v(&["3dv"], &["international conference on 3d vision"]),
    v(
        &["icpr"],
        &["international conference on pattern recognition"],
    ),
    v(&["icip"], &["international conference on image processing"]),
    v(
        &["icme"],
        &["international conference on multimedia and expo"],
    ),
    v(&["ijcv"], &["international journal of computer vision"]),
    v(&["tip"], &["transactions on image processing"]),
    v(
        &["siggraph", "tog"],
        &[
            "transactions on graphics",
            "computer graphics and interactive techniques",
        ],
    ),
    v(
        &["miccai"],
        &["medical image computing and computer assisted intervention"],
    ),
    v(
        &["isbi"],
        &["international symposium on biomedical imaging"],
    ),
    v(
        &["mm", "acm mm"],
        &[
            "acm international conference on multimedia",
            "acm multimedia",
        ],
    ),
    v(&["ipmi"], &["information processing in medical imaging"]),
    // Language and speech.
    v(
        &["acl"],
        &[
            "annual meeting of the association for computational linguistics",
            "association for computational linguistics",
        ],
    ),
    v(
        &["emnlp"],
        &["empirical methods in natural language processing"],
    ),
    v(
        &["naacl", "naacl hlt"],
        &["north american chapter of the association for computational linguistics"],
    ),
    v(
        &["eacl"],
        &["european chapter of the association for computational linguistics"],
    ),
    v(
        &["aacl"],
        &["asia pacific chapter of the association for computational linguistics"],
    ),
    v(
        &["coling"],
        &["international conference on computational linguistics"],
    ),
    v(
        &["conll"],
        &["conference on computational natural language learning"],
    ),
    v(&["lrec"], &["language resources and evaluation"]),
    v(
        &["sigdial"],
        &["special interest group on discourse and dialogue"],
    ),
    v(
        &["cogsci"],
        &[
            "annual meeting of the cognitive science society",
            "annual conference of the cognitive science society",
        ],
    ),
    v(
        &["tacl"],
        &["transactions of the association for computational linguistics"],
    ),
    v(
        &["ijcnlp"],
        &["international joint conference on natural language processing"],
    ),
    v(
        &["interspeech"],
        &["conference of the international speech communication association"],
    ),
    v(
        &["icassp"],
        &["international conference on acoustics speech and signal processing"],
    ),
    v(
        &["asru"],
        &["automatic speech recognition and understanding"],
    ),
    v(&["slt"], &["spoken language technology workshop"]),
    // Robotics and control.
    v(
        &["icra"],
        &["international conference on robotics and automation"],
    ),
    v(
        &["iros"],
        &["international conference on intelligent robots and systems"],
    ),
    v(&["rss"], &["robotics science and systems"]),
    v(&["ral", "ra l"], &["robotics and automation letters"]),
    v(&["cdc"], &["conference on decision and control"]),
    v(&["acc"], &["american control conference"]),
    v(
        &["itsc"],
        &["intelligent transportation systems conference"],
    ),
    v(
        &["ro man", "roman"],
        &["international symposium on robot and human interactive communication"],
    ),
    v(
        &["humanoids"],
        &[
            "international conference on humanoid robots",
            "international conference on humanoid robotics",
        ],
    ),
    // Theory, systems, security, software, data.
    v(&["stoc"], &["symposium on theory of computing"]),
    v(&["focs"], &["symposium on foundations of computer science"]),
    v(&["soda"], &["symposium on discrete algorithms"]),
    v(
        &["concur"],
        &["international conference on concurrency theory"],
    ),
    v(&["pods"], &["symposium on principles of database systems"]),
    v(
        &["icalp"],
        &["international colloquium on automata languages and programming"],
    ),
    v(&["popl"], &["principles of programming languages"]),
    v(
        &["pldi"],
        &["programming language design and implementation"],
    ),
    v(&["osdi"], &["operating systems design and implementation"]),
    v(&["sosp"], &["symposium on operating systems principles"]),
    v(&["nsdi"], &["networked systems design and implementation"]),
    v(
        &["sigcomm"],
        &["applications technologies architectures and protocols for computer communication"],
    ),
    v(&["mobicom"], &["mobile computing and networking"]),
    v(
        &["infocom"],
        &["ieee conference on computer communications"],
    ),
    v(
        &["ccs"],
        &["conference on computer and communications security"],
    ),
    v(
        &["ndss"],
        &["network and distributed system security symposium"],
    ),
    v(&["usenix security"], &["usenix security symposium"]),
    v(
        &["oakland", "s and p", "sp"],
        &["symposium on security and privacy"],
    ),
    v(&["csf"], &["computer security foundations symposium"]),
    v(
        &["crypto"],
        &[
            "international cryptology conference",
            "annual cryptology conference",
        ],
    ),
    v(
        &["eurocrypt"],
        &["theory and applications of cryptographic techniques"],
    ),
    v(
        &["icse"],
        &["international conference on software engineering"],
    ),
    v(
        &["fse", "esec fse"],
        &["foundations of software engineering"],
    ),
    v(
        &["ase"],
        &["international conference on automated software engineering"],
    ),
    v(
        &["issta"],
        &["international symposium on software testing and analysis"],
    ),
    v(
        &["vldb", "pvldb"],
        &["very large data bases", "proceedings of the vldb endowment"],
    ),
    v(
        &["sigmod"],
        &["international conference on management of data"],
    ),
    v(&["icde"], &["international conference on data engineering"]),
    v(
        &["www"],
        &[
            "the web conference",
            "international world wide web conference",
            "international conference on world wide web",
        ],
    ),
    v(
        &["chi"],
        &["conference on human factors in computing systems"],
    ),
    v(&["uist"], &["user interface software and technology"]),
    v(&["cscw"], &["computer supported cooperative work"]),
    v(
        &["tkde"],
        &["transactions on knowledge and data engineering"],
    ),
    v(&["cacm"], &["communications of the acm"]),
    v(
        &["isit"],
        &["international symposium on information theory"],
    ),
    v(&["globecom"], &["global communications conference"]),
    v(&["icc"], &["international conference on communications"]),
    v(&["date"], &["design automation and test in europe"]),
    v(&["dac"], &["design automation conference"]),
    v(&["eusipco"], &["european signal processing conference"]),
    v(
        &["stil"],
        &[
            "brazilian symposium in information and human language technology",
            "simposio brasileiro de tecnologia da informacao e da linguagem humana",
        ],
    ),
    // Journals best known by acronym, and a journal Semantic Scholar files under a
    // conference of the same name.
    v(&["sensors"], &["italian national conference on sensors"]),
    v(
        &["pnas"],
        &["proceedings of the national academy of sciences"],
    ),
    v(&["jama"], &["journal of the american medical association"]),
    v(
        &["nejm", "n engl j med"],
        &["new england journal of medicine"],
    ),
    v(&["bmj"], &["british medical journal"]),
    v(&["prl"], &["physical review letters"]),
    v(&["jacs"], &["journal of the american chemical society"]),
    v(
        &["plos one"],
        &["plos one", "public library of science one"],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acronyms_are_folded_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for venue in KNOWN_VENUES {
            assert!(!venue.acronyms.is_empty() && !venue.names.is_empty());
            for a in venue.acronyms {
                assert_eq!(
                    *a,
                    crate::resolve::normalize::fold(a),
                    "acronym {a} not folded"
                );
                assert!(seen.insert(*a), "acronym {a} listed twice");
            }
        }
    }
}
