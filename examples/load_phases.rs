//! Where the time of opening a big project goes, phase by phase (issue 16's "first frame under
//! 1 s including load"): reading, UTF-8 check, cutting the text at its tracks, parsing, and
//! validating and compiling, each the median of `RUNS` runs in this process; and, as the
//! baseline in the same runs, RON's own parse of the whole text on one core (what opening a
//! file cost before `ron_split.rs` and `ron_keys.rs`).
//!
//! `cargo run --release --example load_phases -- FILE.ron [RUNS]` (make FILE with
//! `cargo run --release --example big_doc -- 200 5000 FILE.ron`).

use std::time::{Duration, Instant};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), runs) = (args.first(), args.get(1).map_or(Ok(5), |r| r.parse::<usize>())?) else {
        anyhow::bail!("usage: load_phases FILE.ron [RUNS]");
    };
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let mut phases: [(&str, Vec<Duration>); 7] = [
        ("read", vec![]),
        ("utf-8", vec![]),
        ("cut at tracks", vec![]),
        ("parse (split, fast keys)", vec![]),
        ("validate + compile", vec![]),
        ("total", vec![]),
        ("baseline: RON, whole text", vec![]),
    ];
    for _ in 0..runs {
        let start = Instant::now();
        let mut t = start;
        let mut lap = |i: usize, phases: &mut [(&str, Vec<Duration>); 7]| {
            phases[i].1.push(t.elapsed());
            t = Instant::now();
        };
        let bytes = std::fs::read(path)?;
        lap(0, &mut phases);
        let text = String::from_utf8(bytes)?;
        lap(1, &mut phases);
        let cut = tangent::ron_split::split_tracks(&text).map_or(0, |(_, e)| e.len());
        lap(2, &mut phases);
        let project = tangent::ron_split::parse_split(&text, &options).ok_or_else(|| anyhow::anyhow!("not split"))?;
        lap(3, &mut phases);
        let curves = tangent::io::compile_project(&project)?;
        lap(4, &mut phases);
        assert_eq!((cut, curves.len()), (project.tracks.len(), project.tracks.len()));
        phases[5].1.push(start.elapsed());
        let baseline = Instant::now();
        let whole: tangent::Project = options.from_str(&text)?;
        phases[6].1.push(baseline.elapsed());
        assert_eq!(whole, project, "the fast path reads what RON reads");
    }
    for (name, times) in phases {
        println!("{name:>26}: {:8.1} ms", median(times).as_secs_f64() * 1e3);
    }
    Ok(())
}
