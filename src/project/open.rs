//! Opening any file the user names (`tangent FILE`, `tangent check FILE`): a project file, or
//! a file of a kind Tangent imports, told apart by its extension. Above both [`crate::io`]
//! (project files) and [`crate::import`] (other formats), which know nothing of each other's
//! errors.

use std::path::Path;

use thiserror::Error;

use crate::error::FileError;
use crate::model::Project;

/// What [`open_any`] read: a project file, or a file of a kind Tangent imports.
#[derive(Clone, Debug, PartialEq)]
pub enum Opened {
    /// A project file: the document is this file (titled by it, saved back to it).
    Project(Project),
    /// A file of a kind in [`crate::import::IMPORT_KINDS`], imported as File > Import does
    /// (every animation): a new untitled project holding its tracks, and the report of what
    /// was read (tracks, warnings). The source file is never the document's file.
    Imported(crate::import::Imported),
}

impl Opened {
    /// The project, and the import's report for an imported file (`None`: a project file).
    #[must_use]
    pub fn into_parts(self) -> (Project, Option<crate::import::ImportReport>) {
        match self {
            Self::Project(project) => (project, None),
            Self::Imported(crate::import::Imported { project, report }) => (project, Some(report)),
        }
    }

    /// The project read.
    #[must_use]
    pub fn project(&self) -> &Project {
        match self {
            Self::Project(project) | Self::Imported(crate::import::Imported { project, .. }) => project,
        }
    }
}

/// Opens whatever `path` is, by its extension: a kind Tangent imports
/// ([`crate::import::import_kind`], any case) is imported into a new untitled project
/// ([`Opened::Imported`]); anything else (`.ron`, or another extension) is loaded as a project
/// file ([`Opened::Project`]), unless it is not text and not `.ron`: then
/// [`OpenError::Unknown`] names the kinds Tangent imports.
pub fn open_any(path: &Path) -> Result<Opened, OpenError> {
    if crate::import::import_kind(path).is_some() {
        return Ok(Opened::Imported(crate::import::import_path(path, &crate::import::ImportOptions::default())?));
    }
    let origin = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|error| FileError::Io { path: origin.clone(), error })?;
    let ron = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron"));
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) if !ron => return Err(OpenError::Unknown { path: origin }),
        Err(e) => return Err(FileError::Io { path: origin, error: std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()) }.into()),
    };
    Ok(Opened::Project(crate::io::parse_project(&text, &origin)?))
}

/// Why [`open_any`] could not open a file: as a project, as an import, or as
/// neither.
#[derive(Debug, Error)]
pub enum OpenError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Import(#[from] crate::import::ImportError),
    /// Not a kind Tangent imports, and not text, so not a project file either (a `.fbx`).
    #[error("cannot open `{path}`: it is not a project file (it is not text), nor a kind Tangent imports ({})", crate::import::import_kinds_list())]
    Unknown { path: String },
}
