//! The help names the kinds of file Tangent imports, from the import table
//! (`tangent::import::IMPORT_KINDS`): `tangent import --help` names BVH and FBX and every
//! kind's name and extension, and so does the help of every command `tangent --help` lists.
//! `tangent eval --help` says it prints radians unless `--degrees`.

use std::process::Command;

use tangent::import::IMPORT_KINDS;

fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_tangent")).args(args).arg("--help").output().unwrap();
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Every row of the import table, by its format's name and its extension.
fn names_every_kind(text: &str, what: &str) {
    for kind in &IMPORT_KINDS {
        let (name, ext) = (kind.format.label(), format!(".{}", kind.extension));
        assert!(text.contains(name) && text.contains(&ext), "{what} does not name {name} ({ext}):\n{text}");
    }
}

#[test]
fn import_help_names_bvh_fbx_and_every_kind() {
    let text = help(&["import"]);
    for word in ["BVH", ".bvh", "FBX", ".fbx"] {
        assert!(text.contains(word), "`tangent import --help` does not name {word}:\n{text}");
    }
    names_every_kind(&text, "`tangent import --help`");
}

#[test]
fn every_command_help_lists_the_import_kinds() {
    let top = help(&[]);
    names_every_kind(&top, "`tangent --help`");
    // The commands `tangent --help` lists: the lines of its Commands section, first word each.
    let commands: Vec<&str> = top
        .split("Commands:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() >= 12 && commands.contains(&"import") && commands.contains(&"reduce"), "{commands:?}");
    for c in commands {
        names_every_kind(&help(&[c]), &format!("`tangent {c} --help`"));
    }
}

#[test]
fn eval_help_states_radians_and_degrees() {
    let text = help(&["eval"]);
    assert!(text.contains("radians") && text.contains("--degrees"), "{text}");
}
