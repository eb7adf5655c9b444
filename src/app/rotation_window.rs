//! Track > Convert rotation…: the Quat and Euler tracks of the selected keys (or the active
//! track) converted the other way — Quat -> Euler in an order chosen here (Blender's meaning),
//! Euler -> Quat as the fewest quaternion keys within an angle in degrees. Convert runs the
//! conversion on a worker (`jobs::Job`; Euler -> Quat measures densely and can take a while on
//! long tracks) with a spinner and Cancel; its result comes back as
//! [`AppCommand::ApplyRotations`], which the dispatcher puts in place as one undo step only if
//! the document, its revision and the selection are still those it was made for.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use eframe::egui;

use super::commands::AppCommand;
use super::document::rotation::{convert_rotations, RotationOptions, Rotations};
use super::jobs::Job;
use super::panel::{Panel, PanelContext};
use super::payload::Window;
use crate::euler::EulerOrder;
use crate::TrackKind;

/// The order combo box's tooltip.
const ORDER_TIP: &str = "Blender's meaning: XYZ applies X first (R = Rz·Ry·Rx); the Euler track gets this order";

/// The window's choices and the conversion under way.
#[derive(Default)]
pub struct RotationWindow {
    options: RotationOptions,
    /// The conversion on a worker, and how many of its tracks are done.
    job: Option<(Job<Rotations>, Arc<AtomicUsize>, usize)>,
}

impl RotationWindow {
    /// Whether a conversion is under way.
    pub fn is_converting(&self) -> bool {
        self.job.is_some()
    }

    /// Starts converting `targets` on a worker, for the document as it is now.
    fn start(&mut self, cx: &PanelContext<'_>, targets: Vec<usize>, ctx: &egui::Context) {
        let (options, basis) = (self.options, cx.doc.basis());
        // The document's project shared, not copied.
        let project = cx.doc.document.shared_project();
        let (done, total) = (Arc::new(AtomicUsize::new(0)), targets.len());
        let count = done.clone();
        let job = Job::spawn("Convert rotation", Some(ctx), move |w| {
            let step = || {
                count.fetch_add(1, Ordering::Relaxed);
                w.repaint();
            };
            convert_rotations(&project, &targets, options, basis, (&|| w.cancelled(), &step))
        });
        self.job = Some((job.made_for(basis), done, total));
    }

    /// The finished conversion, if it arrived, as the command that puts it in place.
    fn poll(&mut self, out: &mut Vec<AppCommand>) -> bool {
        let Some(made) = self.job.as_mut().and_then(|(job, ..)| job.poll()) else { return false };
        self.job = None;
        if let Some(rotations) = made {
            out.push(AppCommand::ApplyRotations(Arc::new(rotations)));
        }
        true
    }

    fn cancel(&mut self) {
        if let Some((job, ..)) = self.job.take() {
            job.cancel();
        }
    }
}

impl Panel for RotationWindow {
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PanelContext<'_>, out: &mut Vec<AppCommand>) {
        if !cx.ui.windows.is_open(Window::ConvertRotation) {
            self.cancel();
            return;
        }
        let mut close = self.poll(out);
        let ctx = ui.ctx().clone();
        let targets = cx.doc.rotation_targets();
        let tracks = &cx.project().tracks;
        let (any_quat, any_euler) = (targets.iter().any(|&t| tracks[t].kind == TrackKind::Quat), targets.iter().any(|&t| tracks[t].kind == TrackKind::Euler));
        let mut open = true;
        open &= super::style::tool_window(ui, "Convert rotation", cx.view.dock_tools, |ui| {
            ui.label("Quat tracks become Euler angles (the same key times, continuous angles); Euler tracks become the fewest quaternion keys that stay within an angle of their rotation.");
            if targets.is_empty() {
                ui.label("Nothing to convert: select keys on a Quat or Euler track, or click one.");
            }
            let busy = self.job.is_some();
            ui.add_enabled_ui(!busy, |ui| self.options_ui(ui, any_quat, any_euler));
            target_table(ui, cx, &targets, self.options);
            if let Some((job, done, total)) = &self.job {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(format!("{}: {} of {total} tracks…", job.label(), done.load(Ordering::Relaxed)));
                });
            }
            ui.horizontal(|ui| {
                let convert =
                    ui.add_enabled(!busy && !targets.is_empty(), egui::Button::new("Convert")).on_hover_text("Convert these tracks, as one undo step");
                if convert.clicked() {
                    self.start(cx, targets.clone(), &ctx);
                }
                if busy && ui.button("Stop").on_hover_text("Stop the conversion; nothing changes").clicked() {
                    self.cancel();
                }
                if ui.button("Close").clicked() {
                    close = true;
                }
            });
        });
        if !open || close {
            self.cancel();
            out.push(AppCommand::CloseWindow(Window::ConvertRotation));
        }
    }
}

impl RotationWindow {
    /// The order Quat tracks become Euler in, the angle Euler tracks are kept within.
    fn options_ui(&mut self, ui: &mut egui::Ui, any_quat: bool, any_euler: bool) {
        egui::Grid::new("rotation options").num_columns(2).show(ui, |ui| {
            if any_quat {
                ui.label("Euler order").on_hover_text(ORDER_TIP);
                let order = &mut self.options.order;
                let r = egui::ComboBox::from_id_salt("convert order").selected_text(order.name()).show_ui(ui, |ui| {
                    for o in EulerOrder::ALL {
                        ui.selectable_value(order, o, o.name()).on_hover_text(ORDER_TIP);
                    }
                });
                r.response.accessible_name("convert order").on_hover_text(ORDER_TIP);
                ui.end_row();
            }
            if any_euler {
                ui.label("within").on_hover_text("The largest angle between the Euler track's rotation and the quaternion keys', measured");
                ui.add(egui::DragValue::new(&mut self.options.angle_deg).range(1e-4..=90.0).speed(0.001).max_decimals(4).suffix("°"))
                    .on_hover_text("Angle bound in degrees: the fewest Slerp or Bézier quaternion keys that stay within it")
                    .accessible_name("convert angle");
                ui.end_row();
            }
        });
    }
}

/// Each target: its name and what it becomes.
fn target_table(ui: &mut egui::Ui, cx: &PanelContext<'_>, targets: &[usize], options: RotationOptions) {
    if targets.is_empty() {
        return;
    }
    super::style::track_table(ui, "rotation targets", |ui| {
        egui::Grid::new("rotation targets").num_columns(3).striped(true).show(ui, |ui| {
            for &t in targets {
                let track = &cx.project().tracks[t];
                ui.label(&track.name);
                ui.label(format!("{} keys", track.keys.len()));
                ui.label(match track.kind {
                    TrackKind::Euler => format!("Euler {} -> Quat within {}°", track.order.name(), options.angle_deg),
                    _ => format!("Quat -> Euler {}", options.order.name()),
                });
                ui.end_row();
            }
        });
    });
}
