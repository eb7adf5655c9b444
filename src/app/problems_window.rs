//! View > Problems (issue 43): the take's jumps ([`crate::problems`]: spikes that come back,
//! flips that last), most severe first, found on a worker for each revision of the document.
//! A row goes there: the playhead to the jump, its track active, its keys (the one before to
//! the one it comes back on) selected and framed in the graph. What it found is handed to the
//! graph ([`AppCommand::SetProblems`]), which marks the jumps on the time axis. Fix spikes is
//! Edit > Fix jumps.

use std::collections::BTreeSet;
use std::sync::Arc;

use eframe::egui;

use super::body::FoundProblems;
use super::commands::{AppCommand, Command};
use super::jobs::Job;
use super::key_change::KeyRef;
use super::panel::{Panel, PanelContext};
use super::playback::TransportCommand;
use super::windows::Window;
use crate::problems::{find_jumps, JumpRule, JumpShape};

/// The window, its job and what it last found.
#[derive(Default)]
pub struct ProblemsWindow {
    job: Option<Job<FoundProblems>>,
    found: Option<Arc<FoundProblems>>,
}

impl ProblemsWindow {
    /// Finds the jumps of the document as it is now, unless that is found or being found.
    fn keep_current(&mut self, cx: &PanelContext<'_>, ctx: &egui::Context, out: &mut Vec<AppCommand>) {
        let basis = cx.doc.basis();
        let key = (basis.document, basis.revision);
        if let Some((_, made)) = Job::finished(&mut self.job) {
            if let Some(made) = made {
                let made = Arc::new(made);
                out.push(AppCommand::SetProblems(Some(made.clone())));
                self.found = Some(made);
            }
        }
        let current = |f: &FoundProblems| f.made_for == key;
        if self.found.as_deref().is_some_and(current) || self.job.as_ref().is_some_and(|j| j.basis().is_some_and(|b| (b.document, b.revision) == key)) {
            return;
        }
        if let Some(job) = self.job.take() {
            job.cancel();
        }
        let project = cx.doc.document.shared_project();
        self.job = Some(
            Job::spawn("Find problems", Some(ctx), move |w| {
                let jumps = find_jumps(&project, &[], &JumpRule::default());
                (!w.cancelled()).then_some(FoundProblems { made_for: key, jumps })
            })
            .made_for(basis),
        );
    }
}

impl Panel for ProblemsWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::Problems) {
            if self.found.take().is_some() || self.job.take().is_some() {
                out.push(AppCommand::SetProblems(None));
            }
            return;
        }
        self.keep_current(cx, ui.ctx(), out);
        let mut open = true;
        egui::Window::new("Problems").open(&mut open).default_width(560.0).show(ui.ctx(), |ui| {
            ui.label("Jumps: a track turning (or moving) far more in one frame than around it. A spike comes back within 5 frames and Fix spikes replaces it by the interpolation across it; a flip that lasts is left to you. The rule: docs/problems.md.");
            let Some(found) = &self.found else {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("looking for jumps…");
                });
                return;
            };
            if self.job.is_some() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("the document changed: looking again…");
                });
            }
            if found.jumps.is_empty() {
                ui.label("No problem found: no track jumps.");
                return;
            }
            let spikes = found.jumps.iter().filter(|j| j.shape != JumpShape::Step).count();
            ui.label(format!("{} jump{}: {spikes} spike{}, {} lasting flip{}", found.jumps.len(), plural(found.jumps.len()), plural(spikes), found.jumps.len() - spikes, plural(found.jumps.len() - spikes)));
            super::style::track_table(ui, "problems", |ui| {
                for jump in &found.jumps {
                    let kind = match jump.shape {
                        JumpShape::Spike { back } => format!("spike, {} frame{}", back - jump.first, plural(back - jump.first)),
                        JumpShape::Step => "lasting flip".to_owned(),
                    };
                    let row = ui.selectable_label(false, format!("{jump}  [{kind}]")).on_hover_text("Go there: the playhead to the jump, its keys selected and framed in the graph");
                    if row.clicked() {
                        let Some(track) = cx.project().tracks.get(jump.track) else { continue };
                        let last = match jump.shape {
                            JumpShape::Spike { back } => back,
                            JumpShape::Step => jump.first,
                        };
                        let keys: BTreeSet<KeyRef> = (jump.first.saturating_sub(1)..=last.min(track.keys.len() - 1)).map(|key| KeyRef { track: jump.track, key }).collect();
                        out.push(AppCommand::Transport(TransportCommand::Scrub(jump.time)));
                        out.push(AppCommand::SetActiveTrack(jump.track));
                        out.push(AppCommand::Select(keys));
                        out.push(AppCommand::Ui(Command::FrameSelected));
                    }
                }
            });
            ui.horizontal(|ui| {
                if ui.button("Fix spikes").on_hover_text(Command::FixJumps.tooltip()).clicked() {
                    out.push(AppCommand::Select(BTreeSet::new()));
                    out.push(AppCommand::Ui(Command::FixJumps));
                }
                if ui.button("Close").clicked() {
                    out.push(AppCommand::CloseWindow(Window::Problems));
                }
            });
        });
        if !open {
            out.push(AppCommand::CloseWindow(Window::Problems));
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
