//! The status bar's message ([`Status`]): what a command, a job or an edit says, and whether
//! it is an error.

use crate::edit::intent::IntentError;

/// The status bar's message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    pub text: String,
    pub is_error: bool,
}

impl Status {
    pub fn message(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: false }
    }

    pub fn error(text: impl Into<String>) -> Self {
        Self { text: text.into(), is_error: true }
    }
}

impl From<IntentError> for Status {
    fn from(e: IntentError) -> Self {
        if e.is_notice() {
            Self::message(e.to_string())
        } else {
            Self::error(e.to_string())
        }
    }
}
