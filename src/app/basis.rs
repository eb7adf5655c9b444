//! What a result was made for ([`Basis`]: document identity, revision, selection) and which
//! of it must still hold for the result to be applied ([`Needs`]): the one currency rule,
//! asked in one place (`AppState::current`).

/// What a result was made for: the open document (an identity unique in the process, so a
/// newly opened document never passes for the last one, though both start at revision 0), its
/// revision, and the selection's generation (unique in the process too). A result made off
/// the UI thread, or kept by a window for what it showed, is applied only while the parts of
/// its basis it [`Needs`] still hold: `DocState::holds`, asked in one place, the dispatcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Basis {
    pub document: u64,
    pub revision: u64,
    pub selection: u64,
}

/// Which parts of its [`Basis`] a result needs to hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// The same document, however edited since (a save marks the document saved at its step).
    Document,
    /// The same document at the same revision, whatever is selected (made from the keys
    /// alone: the runtime preview).
    Revision,
    /// The same document at the same revision with the same selection (anything made from the
    /// keys or from which keys are selected).
    Everything,
}

impl Basis {
    /// Whether a result made for `self` may be applied when the document is at `now`.
    #[must_use]
    pub fn holds_at(&self, now: &Basis, needs: Needs) -> bool {
        match needs {
            Needs::Document => self.document == now.document,
            Needs::Revision => (self.document, self.revision) == (now.document, now.revision),
            Needs::Everything => self == now,
        }
    }
}
