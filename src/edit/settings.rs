//! What a project saves that is not an undo step: the Export window's settings
//! (`Project::export`). As Blender keeps its exporters' settings in the `.blend` without undo
//! steps, changing them marks the document unsaved (`Document::is_dirty`) but Undo passes
//! them by, and the revision (what views and workers' results are made for) stays.

use super::Document;
use crate::model::ExportSettings;

/// A state of the document a save wrote: the undo step on top and how many times the saved
/// settings had changed ([`Document::save_point`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SavePoint {
    pub(super) step: u64,
    pub(super) settings: u64,
}

impl Document {
    /// Sets the project's export settings (`None`: none kept). Returns whether they changed;
    /// a change marks the document unsaved until the next save.
    pub fn set_export_settings(&mut self, settings: Option<ExportSettings>) -> bool {
        if self.project.export == settings {
            return false;
        }
        std::sync::Arc::make_mut(&mut self.project).export = settings;
        self.settings_changes += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A change of the export settings marks the document unsaved, is not undone, and a save
    /// (of a snapshot taken after it) makes it clean; one made during a save stays unsaved.
    #[test]
    fn export_settings_mark_the_document_unsaved_without_an_undo_step() {
        let mut d = Document::new(crate::io::demo_project());
        let revision = d.revision();
        let mut settings = ExportSettings::at_fps(120.0);
        assert!(d.set_export_settings(Some(settings.clone())));
        assert!(!d.set_export_settings(Some(settings.clone())), "the same settings change nothing");
        assert!(d.is_dirty() && d.undo_label().is_none() && d.revision() == revision);
        let at = d.save_point();
        settings.adaptive = true;
        assert!(d.set_export_settings(Some(settings.clone())));
        d.mark_saved_at(at);
        assert!(d.is_dirty(), "changed after the snapshot was taken");
        d.mark_saved();
        assert!(!d.is_dirty());
        assert_eq!(d.project().export, Some(settings));
        assert!(d.undo().is_none(), "nothing to undo");
    }
}
