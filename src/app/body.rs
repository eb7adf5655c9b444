//! The body's plain data in the editor (issue 42, 43), below everything that sends or
//! handles it: how far a change moves the body ([`BodyChange`], every tool's report line),
//! the joints picked in the pose view ([`JointSelection`]) and the jumps View > Problems found
//! ([`FoundProblems`]).

use crate::error::TrackError;
use crate::{Key, Project, Track, TrackCurve};

/// How far a tool's change moves the body ([`crate::body::replaced_difference`]): `None`
/// when the project has no skeleton or the change moves no joint's track; an error says why
/// the body could not be measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BodyChange(pub Option<Result<crate::body::Displacement, String>>);

impl BodyChange {
    /// The body before and after `project`'s tracks `replaced` (index, the new track as
    /// compiled, `CompiledTrack::curve`) take their new curves (those that compiled).
    #[must_use]
    pub fn measure<'a>(project: &Project, replaced: impl IntoIterator<Item = (usize, &'a Result<TrackCurve, TrackError>)>) -> Self {
        if project.skeleton.is_none() {
            return Self(None);
        }
        let curves: Vec<(usize, &TrackCurve)> = replaced.into_iter().filter_map(|(i, c)| Some((i, c.as_ref().ok()?))).collect();
        Self(crate::body::replaced_difference(project, &curves).map_err(|e| e.to_string()).transpose())
    }

    /// The body before and after tracks take new keys (index, keys): each such track compiled
    /// with its new keys (nothing to say without a skeleton).
    #[must_use]
    pub fn of_new_keys<'a>(project: &Project, new: impl IntoIterator<Item = (usize, &'a [Key])>) -> Self {
        if project.skeleton.is_none() {
            return Self(None);
        }
        let compiled: Vec<(usize, Result<TrackCurve, TrackError>)> = new
            .into_iter()
            .filter_map(|(i, keys)| {
                let t = project.tracks.get(i)?;
                let track = Track { name: t.name.clone(), keys: keys.to_vec().into(), ..Track::new(t.name.clone(), t.kind, t.interpolation) };
                let track = Track {
                    order: t.order,
                    tangents: t.tangents,
                    ending_start: t.ending_start,
                    ending_end: t.ending_end,
                    pre_infinity: t.pre_infinity,
                    post_infinity: t.post_infinity,
                    auto_smoothing: t.auto_smoothing,
                    ..track
                };
                Some((i, TrackCurve::new(&track)))
            })
            .collect();
        Self::measure(project, compiled.iter().map(|(i, c)| (*i, c)))
    }

    /// The report's line: `Body: largest joint displacement D file units at JOINT, T s (P% of
    /// the skeleton's size)`.
    #[must_use]
    pub fn text(&self) -> Option<String> {
        Some(match self.0.as_ref()? {
            Ok(d) => format!(
                "Body: largest joint displacement {:.4} file units at {}, {:.3} s ({:.2}% of the skeleton's size)",
                d.distance, d.point, d.time, d.percent
            ),
            Err(e) => format!("Body: not measured: {e}"),
        })
    }
}

/// What View > Problems found for one revision of one document (document id, revision).
#[derive(Clone, Debug, PartialEq)]
pub struct FoundProblems {
    pub made_for: (u64, u64),
    pub jumps: Vec<crate::problems::Jump>,
}

/// The joints picked in the pose view: their indices in the skeleton, every track they are
/// bound to (the graph draws them as it draws the active track), and the track that becomes
/// active (the last picked joint's rotation, else its translation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JointSelection {
    pub joints: std::collections::BTreeSet<usize>,
    pub tracks: Vec<usize>,
    pub primary: Option<usize>,
}
