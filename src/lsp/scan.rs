//! The documents of the workspace folders, read (not checked) through the open
//! buffers: references and rename must also find the chapters and papers that are
//! not open. Read on demand, with the folder's own configuration (include and
//! exclude globs, citation commands).

use super::view::View;
use crate::fs::Vfs;
use crate::load::Project;
use crate::pipeline::{CheckSetup, Checker};

/// Every workspace folder's documents, linked. A folder whose configuration is
/// invalid is left out: its documents' diagnostics already say why.
pub fn folder_projects(view: &View) -> Vec<Project> {
    let mut projects = Vec::new();
    for folder in view.folders.iter().filter(|f| f.is_dir()) {
        let loaded = view.settings.overrides().and_then(|overrides| {
            let checker = Checker::new(CheckSetup {
                inputs: vec![folder.clone()],
                bibliographies: Vec::new(),
                overrides,
                fs: Vfs::new(view.documents.buffers().snapshot()),
            })?;
            checker.load()
        });
        if let Ok(mut project) = loaded {
            crate::check::link_all(&mut project);
            projects.push(project);
        }
    }
    projects
}
