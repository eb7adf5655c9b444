//! What panels share: colours (one per track, a shade per component of a vector track, the
//! fixed colours of the tangent arrows, in = ra and out = rb, ease handles and the playhead),
//! Bézier handles by type, the value axis width that lines time axes up, number formatting, and
//! the scrolled per-track tables of the windows.

use eframe::egui::Color32;

use crate::Track;

/// Height past which a window's per-track table scrolls.
pub const TRACK_TABLE_HEIGHT: f32 = 200.0;

/// A window's per-track table (Convert to Bézier, Simplify, Export), scrolled past
/// [`TRACK_TABLE_HEIGHT`]: unscrolled, a selection of a few dozen tracks pushed the window's
/// buttons below the screen.
pub fn track_table<R>(ui: &mut eframe::egui::Ui, id: &str, add: impl FnOnce(&mut eframe::egui::Ui) -> R) -> R {
    eframe::egui::ScrollArea::vertical().id_salt(id).max_height(TRACK_TABLE_HEIGHT).show(ui, add).inner
}

/// Width of the value axis, shared by the value and speed graphs so their time axes line up.
pub const AXIS_WIDTH: f32 = 44.0;
/// What a tool would make (Simplify's reduced curve and keys, Smooth's and Scale time's new
/// curves): amber, so it is never taken for the selection (white keys and runs) or the ghost
/// of the original (the track's colour, faint and dashed).
pub const PREVIEW: Color32 = Color32::from_rgb(255, 190, 60);
/// The playhead line in every plot.
pub const PLAYHEAD: Color32 = Color32::from_rgb(240, 80, 60);
/// View > Problems' marks on the graph's time axis: a spike, a lasting flip.
pub const PROBLEM_SPIKE: Color32 = Color32::from_rgb(255, 200, 0);
pub const PROBLEM_STEP: Color32 = Color32::from_rgb(255, 60, 200);

const PALETTE: [Color32; 8] = [
    Color32::from_rgb(86, 156, 214),
    Color32::from_rgb(220, 120, 80),
    Color32::from_rgb(120, 190, 100),
    Color32::from_rgb(200, 110, 200),
    Color32::from_rgb(230, 190, 70),
    Color32::from_rgb(90, 200, 190),
    Color32::from_rgb(230, 100, 130),
    Color32::from_rgb(160, 160, 230),
];

/// Incoming tangent (ra) arrows and handles.
pub const INCOMING: Color32 = Color32::from_rgb(255, 170, 40);
/// Outgoing tangent (rb) arrows and handles.
pub const OUTGOING: Color32 = Color32::from_rgb(60, 220, 255);
/// Ease handles.
pub const EASE: Color32 = Color32::from_rgb(250, 250, 120);

/// A Bézier handle of this type, in the hues of Blender's graph editor (Free grey, Aligned
/// pink, Vector green, Auto yellow, AutoClamped salmon), lightened for a dark background.
/// The foot of a window that previews a change (Simplify, Smooth, Scale time, Insert or
/// Remove time, Convert): the button that makes it (`label`, enabled when `enabled`, its
/// tooltip, and why it is off) and Cancel. Whether it was clicked, and whether the window
/// closes (either button).
pub fn apply_or_cancel(ui: &mut eframe::egui::Ui, label: &str, enabled: bool, tips: (&str, &str)) -> (bool, bool) {
    ui.horizontal(|ui| {
        let apply = ui.add_enabled(enabled, eframe::egui::Button::new(label)).on_hover_text(tips.0).on_disabled_hover_text(tips.1).clicked();
        let cancel = ui.button("Cancel").on_hover_text("Close this window; nothing changes").clicked();
        (apply, apply || cancel)
    })
    .inner
}

pub fn handle_color(t: crate::HandleType) -> Color32 {
    match t {
        crate::HandleType::Free => Color32::from_rgb(200, 200, 200),
        crate::HandleType::Aligned => Color32::from_rgb(240, 120, 200),
        crate::HandleType::Vector => Color32::from_rgb(120, 220, 90),
        crate::HandleType::Auto => Color32::from_rgb(240, 220, 60),
        crate::HandleType::AutoClamped => Color32::from_rgb(250, 140, 110),
    }
}

/// The track's own colour, or one from the palette by position.
pub fn track_color(track: &Track, index: usize) -> Color32 {
    match track.color {
        Some(c) => Color32::from_rgb(c.0, c.1, c.2),
        None => PALETTE[index % PALETTE.len()],
    }
}

/// Component `c` of `n`: the track colour for the first, then lighter and darker shades, so
/// x, y, z of one track read as one family.
pub fn component_color(base: Color32, c: usize, n: usize) -> Color32 {
    if n <= 1 {
        return base;
    }
    let f = [1.0, 0.65, 1.35, 0.45][c % 4];
    let ch = |v: u8| (f32::from(v) * f).clamp(0.0, 255.0) as u8;
    Color32::from_rgb(ch(base.r()), ch(base.g()), ch(base.b()))
}

/// `1.000` for one number, `(1.000, 2.000)` for several.
pub fn fmt_vec(v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|x| format!("{x:.3}")).collect();
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        format!("({})", parts.join(", "))
    }
}

/// A tool report's body line (`BodyChange::text`), if the project has a skeleton: how far the
/// change moves the body, in file units and % of the skeleton's size.
pub fn body_line(ui: &mut eframe::egui::Ui, body: &super::body::BodyChange) {
    if let Some(text) = body.text() {
        let r = ui.label(eframe::egui::RichText::new(text).strong());
        r.on_hover_text(
            "Measured on the skeleton by forward kinematics at every key time and frame: the largest distance any joint or end site moves from where it was",
        );
    }
}

/// A tool's warning that its range crosses jumps (`problems::find_jumps`): smoothing or
/// blending across a one-frame flip smears it; Edit > Fix jumps first is the fix.
pub fn jumps_warning(ui: &mut eframe::egui::Ui, crossed: &[crate::problems::Jump]) {
    let Some(first) = crossed.first() else { return };
    let more = if crossed.len() > 1 { format!(" and {} more", crossed.len() - 1) } else { String::new() };
    let text = format!(
        "Warning: the keys cross a jump: {}{more}. A filter smears it over many frames: run Edit > Fix jumps (tangent filter --jumps) first (View > Problems lists them).",
        first
    );
    ui.colored_label(ui.visuals().warn_fg_color, text);
}

/// A tool's window (Smooth, Simplify, Scale time, Convert to Bézier, Convert rotation, the
/// import report): docked as a panel below the graph (between the track list and the
/// inspector), so the graph gets shorter and nothing covers the curves; or, with View > Dock tool windows off, a floating window that
/// egui keeps where the user moved it (its place is kept with the window memory between runs).
/// `ui` is the window's root: a docked tool is laid out before the centre. Returns whether it
/// stays open (its close button not pressed).
pub fn tool_window(ui: &mut eframe::egui::Ui, title: &str, docked: bool, add: impl FnOnce(&mut eframe::egui::Ui)) -> bool {
    use eframe::egui;
    let mut open = true;
    if docked {
        // As tall as its content (measured in the last frame) up to about half the window,
        // then scrolled, so its buttons at the end stay reachable; as wide as the centre, long
        // lines wrap. (A panel lays its content out in last frame's height: sized by the
        // content it would never grow.)
        let most = (ui.ctx().content_rect().height() * 0.5).max(160.0);
        let id = egui::Id::unique(("docked tool height", title));
        let content = ui.ctx().data(|d| d.get_temp::<f32>(id)).unwrap_or(most);
        let header = ui.spacing().interact_size.y + 2.0 * ui.spacing().item_spacing.y + 12.0;
        egui::Panel::bottom(("docked tool", title)).resizable(false).exact_size(content.min(most) + header).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(title);
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    if ui.button("x").on_hover_text(format!("Close {title} (Escape)")).clicked() {
                        open = false;
                    }
                });
            });
            ui.separator();
            let shown = egui::ScrollArea::vertical().id_salt(("docked tool scroll", title)).auto_shrink([false, true]).show(ui, add);
            let height = shown.content_size.y;
            if (height - content).abs() > 0.5 {
                ui.ctx().data_mut(|d| d.insert_temp(id, height));
                ui.ctx().request_repaint();
            }
        });
    } else {
        egui::Window::new(title).open(&mut open).collapsible(false).resizable(false).show(ui.ctx(), add);
    }
    open
}
