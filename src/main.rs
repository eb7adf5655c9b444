//! `tangent`: the editor, and the commands that scripts depend on (SPEC §9).

mod cli;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{ArgGroup, Parser, Subcommand};

/// Tangent — a keyframe curve editor that shows what the tangents really are.
///
/// With no command, opens the editor on FILE, or on the built-in demo project.
#[derive(Parser, Debug)]
#[command(version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// A project (.ron) to open in the editor, or a file to import into a new untitled project
    /// (the kinds are listed below).
    file: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print a track's value at each time, one line per time: the values as stored (an Euler
    /// track's angles in radians, for scripts; with --degrees in degrees).
    Eval {
        file: PathBuf,
        /// Name of the track.
        #[arg(long)]
        track: String,
        /// Comma-separated times in seconds; without it, times are read from stdin, one per line.
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        times: Option<Vec<f64>>,
        /// An Euler track's angles in degrees instead of radians (Euler tracks only).
        #[arg(long)]
        degrees: bool,
    },
    /// Check a project file and print what is wrong with it (a file Tangent imports is
    /// imported, and said to be one).
    Check { file: PathBuf },
    /// Arc length of a Vec2/Vec3 track: total and table size, or lengths/times from stdin.
    Arclen {
        file: PathBuf,
        #[arg(long)]
        track: String,
        /// Absolute error bound E in length units.
        #[arg(long)]
        tolerance: f64,
        /// Read lengths from stdin and print the time at each.
        #[arg(long, conflicts_with = "times")]
        lengths: bool,
        /// Read times from stdin and print the length at each.
        #[arg(long)]
        times: bool,
    },
    /// Bake and export every track for an engine (CSV, three.js JSON, glTF / GLB).
    Bake {
        file: PathBuf,
        /// Frames per second for baked tracks (and the CSV's rows); default: the project's fps.
        #[arg(long, allow_negative_numbers = true)]
        fps: Option<f64>,
        /// Instead of one key per frame, the fewest keys within this error bound, in value (file)
        /// units, for every track but rotations (those take --angle).
        #[arg(long, allow_negative_numbers = true)]
        adaptive: Option<f64>,
        /// With --adaptive: the largest angle from the original for rotation (Quat and Euler)
        /// tracks, in degrees. (Before --angle, --adaptive's E bounded rotations in radians.)
        #[arg(long, value_name = "DEG", default_value_t = tangent::reduce::DEFAULT_ANGLE_DEG, allow_negative_numbers = true)]
        angle: f64,
        /// With --adaptive: linear keys (for engines without cubic curves) instead of fitted
        /// Bezier keys (glTF CUBICSPLINE, three.js InterpolateBezier).
        #[arg(long, requires = "adaptive")]
        adaptive_linear: bool,
        /// Bake Vec2/Vec3 paths moved at constant speed (arc length).
        #[arg(long)]
        constant_speed: bool,
        /// three.js JSON for three.js before r187: bake TCB, Cubic and Bezier tracks instead of
        /// writing InterpolateBezier tracks.
        #[arg(long)]
        three_before_r187: bool,
        /// csv, json (three.js AnimationClip), gltf, or glb.
        #[arg(long, value_enum)]
        format: tangent::export::Format,
        /// Output file.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
        /// Map a track to a target: NAME=translation|rotation|scale|weights|property|skip.
        #[arg(long = "map", value_name = "NAME=TARGET", value_parser = cli::parse_mapping)]
        map: Vec<(String, tangent::export::Target)>,
        /// Who plays the file: spec (glTF / three.js), three, blender (the glTF importer of
        /// Blender 4.2 and later: keys its Auto handles play within --adaptive's bound, none
        /// it would merge), blender-3.4 (Blender 3.4's: Auto Clamped handles), or godot (Godot
        /// 3.2's glTF importer: linear keys, its 15 fps resampling measured).
        #[arg(long, value_enum, default_value = "spec")]
        runtime: tangent::runtime::Runtime,
    },
    /// Replace each track's keys by the fewest Bezier keys within a tolerance (SPEC §12):
    /// --tolerance for Scalar and vector tracks, --angle for Quat and Euler tracks; or with
    /// --body within a bound on the body (no joint moves more than E).
    #[command(group(ArgGroup::new("bound").required(true).args(["tolerance", "body"])))]
    Reduce {
        file: PathBuf,
        /// Largest distance from the original for Scalar and vector tracks (Euclidean over the
        /// components), in value (file) units. Rotation tracks take --angle.
        #[arg(long, allow_negative_numbers = true)]
        tolerance: Option<f64>,
        /// Largest displacement of any joint or end site from the original at any time, in
        /// file units: the fewest keys of the skeleton's tracks that keep the body within it
        /// (the error shared down the hierarchy; docs/problems.md).
        #[arg(long, value_name = "E", allow_negative_numbers = true, conflicts_with = "tracks")]
        body: Option<f64>,
        /// Only this track (repeat for more); default: every track.
        #[arg(long = "track", value_name = "NAME")]
        tracks: Vec<String>,
        /// Largest angle from the original for rotation tracks, Quat and Euler alike: the angle
        /// between the original and the reduced rotation at every key (and between keys of a
        /// smooth original), in degrees. (An Euler track's angles are not bounded one by one.)
        #[arg(long, default_value_t = tangent::reduce::DEFAULT_ANGLE_DEG, allow_negative_numbers = true)]
        angle: f64,
        /// Output project (required with --tolerance; with --body, without it only the report).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
    },
    /// Filter tracks' keys with exactly one of: `--euler` replaces each Euler track's angles,
    /// key by key, by the angles of the same rotation nearest the key before (no step over
    /// 180°) (SPEC §13); `--butterworth`, `--gaussian` and `--median` smooth the keys as a
    /// signal at their rate, as scipy does (docs/smoothing.md), printing per track its keys,
    /// whether it was resampled, and the largest difference between the old and new curves.
    #[command(group(ArgGroup::new("filter").required(true).args(["euler", "jumps", "butterworth", "gaussian", "median"])))]
    Filter {
        file: PathBuf,
        /// Replace each spike (a jump out and back within a few frames: `tangent problems`)
        /// by the interpolation across it (slerp for rotations); steps that last are reported,
        /// not changed.
        #[arg(long)]
        jumps: bool,
        /// The Euler filter on Euler tracks.
        #[arg(long)]
        euler: bool,
        /// Zero-phase Butterworth low-pass at this cutoff in Hz (above 0, below half the keys'
        /// rate): scipy's butter then filtfilt.
        #[arg(long, value_name = "CUTOFF_HZ", allow_negative_numbers = true)]
        butterworth: Option<f64>,
        /// With --butterworth: the filter's order, 1 to 8 [default: 2].
        #[arg(long, value_name = "N")]
        order: Option<usize>,
        /// Gaussian smoothing with this sigma in seconds (above 0): scipy's gaussian_filter1d,
        /// mode 'nearest'.
        #[arg(long, value_name = "SIGMA_SECONDS", allow_negative_numbers = true)]
        gaussian: Option<f64>,
        /// Median over a window of this many seconds (at least 3 keys; odd in keys): removes
        /// spikes.
        #[arg(long, value_name = "WINDOW_SECONDS", allow_negative_numbers = true)]
        median: Option<f64>,
        /// Only this track (repeat for more); default: every Euler track with --euler, every
        /// rotation and position track with --jumps, every track but Step tracks otherwise.
        #[arg(long = "track", value_name = "NAME")]
        tracks: Vec<String>,
        /// Output project.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
    /// Convert rotation tracks: Quat to Euler angles (keys at the same times, continuous
    /// angles) or Euler to the fewest quaternion keys within an angle (SPEC §13).
    Convert {
        file: PathBuf,
        /// Quat tracks to Euler angles in this order (XYZ, XZY, YXZ, YZX, ZXY, ZYX; Blender's
        /// meaning: XYZ applies X first).
        #[arg(long, value_name = "ORDER", conflicts_with = "to_quat", required_unless_present = "to_quat", value_parser = parse_order)]
        to_euler: Option<tangent::euler::EulerOrder>,
        /// Euler tracks to Slerp or Bezier quaternion keys.
        #[arg(long)]
        to_quat: bool,
        /// With --to-quat: the largest angle from the Euler rotation, in degrees.
        #[arg(long, default_value_t = tangent::reduce::DEFAULT_ANGLE_DEG, allow_negative_numbers = true)]
        angle: f64,
        /// Only this track (repeat for more); default: every track of the kind converted.
        #[arg(long = "track", value_name = "NAME")]
        tracks: Vec<String>,
        /// Output project.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
    /// Stretch tracks in time about a pivot: new(t) = old(pivot + (t - pivot)/S), exactly for
    /// every mode; a negative scale mirrors time (docs/retiming.md).
    Retime {
        file: PathBuf,
        /// The time scale S (not 0; below 0 mirrors).
        #[arg(long, allow_negative_numbers = true)]
        scale: f64,
        /// The time that stays where it is, in seconds.
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
        pivot: f64,
        /// Only this track (repeat for more); default: every track.
        #[arg(long = "track", value_name = "NAME")]
        tracks: Vec<String>,
        /// Output project.
        #[arg(short = 'o', long = "output")]
        output: PathBuf,
    },
    /// List a take's problems, most severe first (nothing on a clean take): jumps of rotation
    /// and position tracks, `jump TRACK at T s (frame F): turns A° in one frame (around it:
    /// M°/frame)`. The rule and its thresholds: docs/problems.md.
    Problems { file: PathBuf },
    /// The body's joints at each time (SPEC §14): per time, one line per joint in skeleton
    /// order, `TIME NAME X Y Z` (world position, file units), and `JOINT_end` after a joint
    /// with an end site. FILE is a project or a file Tangent imports (a BVH take).
    Pose {
        file: PathBuf,
        /// Comma-separated times in seconds; without it, times are read from stdin, one per line.
        #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
        times: Option<Vec<f64>>,
    },
    /// How far two versions of a take differ: per track the largest difference of the curves
    /// (file units, degrees for rotations); with --body, the largest joint displacement.
    Diff {
        before: PathBuf,
        after: PathBuf,
        /// Only this track (repeat for more); default: every track.
        #[arg(long = "track", value_name = "NAME")]
        tracks: Vec<String>,
        /// Also the largest displacement of any joint or end site over the whole take (at every
        /// frame and key time), in file units and % of the skeleton's size.
        #[arg(long)]
        body: bool,
    },
    /// Import a file of a kind Tangent reads (listed below) as a project; prints one line per
    /// track (name, kind, interpolation, keys, target) and the warnings.
    Import {
        file: PathBuf,
        /// The project to write; default: FILE's name with .ron, beside it (never overwritten).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Of several animations (or clips), import only this one, without the NAME/ prefix.
        #[arg(long)]
        animation: Option<String>,
    },
}

/// An Euler order by name, any case; an unknown one names the six.
fn parse_order(s: &str) -> Result<tangent::euler::EulerOrder, String> {
    tangent::euler::EulerOrder::parse(s).ok_or_else(|| format!("unknown rotation order \"{s}\" (the orders are {})", tangent::euler::EulerOrder::all_names()))
}

/// The commands whose FILE may be a file Tangent imports, not only a project, and when.
const READ_IMPORTS: [(&str, &str); 7] =
    [("check", ""), ("import", ""), ("pose", ""), ("diff", ""), ("problems", ""), ("filter", " with --jumps"), ("reduce", " with --body")];

/// The command line with the kinds of file Tangent imports named in every command's help, from
/// the import table (`tangent::import::IMPORT_KINDS`), so the help cannot fall behind it.
fn command() -> clap::Command {
    use clap::CommandFactory;
    let kinds = tangent::import::import_kinds_named();
    let mut cmd = Cli::command().after_help(format!("Files Tangent imports: {kinds}."));
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_owned()).collect();
    for name in names {
        let text = match READ_IMPORTS.iter().find(|(n, _)| *n == name) {
            _ if name == "import" => format!("FILE is a file Tangent imports: {kinds}."),
            Some((_, when)) => format!("FILE is a project (.ron), or{when} a file Tangent imports: {kinds}."),
            None => format!("FILE is a project (.ron); `tangent import` makes one of a file Tangent imports: {kinds}."),
        };
        cmd = cmd.mut_subcommand(name, |s| s.after_help(text));
    }
    cmd
}

fn main() -> ExitCode {
    use clap::FromArgMatches;
    let cli = Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        None => tangent::app::run(cli.file),
        Some(Command::Eval { file, track, times, degrees }) => cli::eval(&file, &track, times, degrees),
        Some(Command::Check { file }) => cli::check(&file),
        Some(Command::Pose { file, times }) => cli::body::pose(&file, times),
        Some(Command::Diff { before, after, tracks, body }) => cli::body::diff(&before, &after, &tracks, body),
        Some(Command::Arclen { file, track, tolerance, lengths, times }) => {
            cli::arclen(&file, &track, tolerance, cli::ArclenOutput::from_flags(lengths, times))
        }
        Some(Command::Bake { file, fps, adaptive, angle, adaptive_linear, constant_speed, three_before_r187, format, output, map, runtime }) => cli::bake(
            &file,
            cli::BakeArgs { fps, adaptive, angle, adaptive_linear, constant_speed, three_bezier: !three_before_r187, format, map, runtime },
            &output,
        ),
        Some(Command::Reduce { file, tolerance, body, tracks, angle, output }) => match (tolerance, body) {
            (_, Some(bound)) => cli::problems::reduce_on_body(&file, bound, output.as_deref()),
            (Some(tolerance), None) => match output {
                Some(output) => cli::reduce(&file, tolerance, angle, &tracks, &output),
                None => Err(anyhow::anyhow!("--tolerance needs -o OUT: the project to write")),
            },
            (None, None) => unreachable!("clap requires --tolerance or --body"),
        },
        Some(Command::Import { file, output, animation }) => cli::import(&file, output.as_deref(), animation),
        Some(Command::Problems { file }) => cli::problems::problems(&file),
        Some(Command::Filter { file, euler, jumps, butterworth, order, gaussian, median, tracks, output }) => {
            if jumps {
                cli::problems::fix_jumps(&file, &tracks, &output)
            } else if euler {
                cli::rotation::filter_euler(&file, &tracks, &output)
            } else {
                cli::smooth::smooth(&file, cli::smooth::chosen_filter(butterworth, order, gaussian, median), &tracks, &output)
            }
        }
        Some(Command::Retime { file, scale, pivot, tracks, output }) => cli::retime::retime(&file, scale, pivot, &tracks, &output),
        Some(Command::Convert { file, to_euler, to_quat: _, angle, tracks, output }) => {
            let conversion = to_euler.map_or(cli::rotation::Conversion::ToQuat(angle), cli::rotation::Conversion::ToEuler);
            cli::rotation::convert(&file, conversion, &tracks, &output)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tangent: {e:#}");
            ExitCode::FAILURE
        }
    }
}
