//! No circle of modules: the library's files depend on one another one way only, so that each
//! can be read, tested and moved knowing only what lies below it. What counts as a dependency
//! is in `graph`'s module doc.

mod graph;

use std::collections::BTreeMap;
use std::path::Path;

use graph::{circles, describe, graph, library_files, name, Graph, Module};

/// Circles not yet broken, each by its modules in any order. An entry that is no longer a
/// circle fails the test too, so the list only shrinks.
const KNOWN_CYCLES: &[&[&str]] = &[];

/// Ok when the circles are exactly the known ones; else what to do about each difference.
fn verdict(g: &Graph, known: &[&[&str]]) -> Result<(), String> {
    let sorted = |c: &[&str]| {
        let mut c: Vec<String> = c.iter().map(|s| s.to_string()).collect();
        c.sort();
        c
    };
    let known: Vec<Vec<String>> = known.iter().map(|c| sorted(c)).collect();
    let found = circles(g);
    let found_names: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| name(m)).collect())
        .collect();
    let mut problems = Vec::new();
    for (circle, names) in found.iter().zip(&found_names) {
        if !known.contains(names) {
            problems.push(format!(
                "a circle of modules: {}\n  break it by moving what they share into a module below them",
                describe(g, circle)
            ));
        }
    }
    for k in &known {
        if !found_names.contains(k) {
            problems.push(format!(
                "KNOWN_CYCLES lists {}, which is no longer a circle: remove it from the list",
                k.join(" | ")
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn the_library_has_no_circle_of_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = library_files(&src);
    assert!(
        files.contains_key(&vec![
            "engine".to_string(),
            "chess".to_string(),
            "scoring".to_string()
        ]),
        "the library's files are read from {}",
        src.display()
    );
    if let Err(problems) = verdict(&graph(&files), KNOWN_CYCLES) {
        panic!("{problems}");
    }
}

/// A few files held in memory, by path as under `src/`.
fn in_memory(files: &[(&str, &str)]) -> BTreeMap<Module, String> {
    files
        .iter()
        .map(|(path, text)| {
            let mut m: Module = path
                .trim_end_matches(".rs")
                .split('/')
                .map(String::from)
                .collect();
            if m.last().is_some_and(|s| s == "mod" || s == "lib") {
                m.pop();
            }
            (m, text.to_string())
        })
        .collect()
}

#[test]
fn a_circle_is_found_with_each_dependency_and_the_path_behind_it() {
    let files = in_memory(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod c; pub mod d;"),
        ("a.rs", "use crate::b::{Board, Round as R};\npub fn h() {}"),
        (
            "b.rs",
            "pub struct Board; pub struct Round;\nuse super::c::f;",
        ),
        ("c.rs", "pub fn f() -> u32 { crate::a::h(); 1 }"),
        ("d.rs", "use crate::a::h; // below the circle, not in it"),
    ]);
    let g = graph(&files);
    let found = circles(&g);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| name(m)).collect())
        .collect();
    assert_eq!(names, [["a", "b", "c"]]);
    assert_eq!(
        describe(&g, &found[0]),
        "a | b | c\n    a -> b   (use crate::b::Board)\n    b -> c   (use super::c::f)\n    c -> a   (crate::a::h)"
    );
    let failure = verdict(&g, &[]).unwrap_err();
    assert!(
        failure.contains("a circle of modules: a | b | c"),
        "{failure}"
    );
    assert_eq!(verdict(&g, &[&["c", "a", "b"]]), Ok(()));
    let stale = verdict(&g, &[&["c", "a", "b"], &["b", "d"]]).unwrap_err();
    assert!(
        stale.contains("KNOWN_CYCLES lists b | d, which is no longer a circle"),
        "{stale}"
    );
}

#[test]
fn comments_strings_test_code_and_a_folder_naming_its_parts_make_no_circle() {
    let files = in_memory(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod hub;"),
        ("a.rs", "use crate::b::Board;\npub fn h() {}"),
        (
            "b.rs",
            concat!(
                "pub struct Board;\n",
                "/// See [`crate::a::h`].\n",
                "/* crate::a::h /* nested */ crate::a::h */\n",
                "const S: &str = \"crate::a::h\"; const R: &str = r#\"crate::a::h\"#;\n",
                "fn f<'x>(s: &'x str) -> char { let _ = s; '\"' }\n",
                "fn g() { let _ = crate::hub::part::Part; }\n",
                "#[cfg(test)]\nmod tests { use crate::a::h; }\n",
                "#[cfg(test)]\nmod more_tests;",
            ),
        ),
        ("b/more_tests.rs", "use crate::a::h;"),
        (
            "hub/mod.rs",
            "mod part;\npub use part::Part;\npub struct Frame;",
        ),
        ("hub/part.rs", "use super::Frame;\npub struct Part;"),
    ]);
    let g = graph(&files);
    assert_eq!(circles(&g), Vec::<Vec<Module>>::new());
    let depends_on = |m: &str| -> Vec<String> {
        let m: Module = m.split('/').map(String::from).collect();
        g.edges
            .get(&m)
            .into_iter()
            .flat_map(|e| e.keys().map(|k| name(k)))
            .collect()
    };
    assert_eq!(depends_on("a"), ["b"]);
    assert_eq!(depends_on("b"), ["hub/part"]);
    assert_eq!(depends_on("b/more_tests"), Vec::<String>::new());
    assert_eq!(depends_on("hub"), Vec::<String>::new());
    assert_eq!(depends_on("hub/part"), ["hub"]);
}

#[test]
fn a_path_through_a_reexport_reaches_the_file_that_defines_it() {
    let files = in_memory(&[
        ("lib.rs", "pub mod a; pub mod b; pub mod standings;"),
        ("a.rs", "pub struct Game;"),
        (
            "standings.rs",
            "pub use crate::a::Game as Played;\npub fn rank() {}",
        ),
        ("b.rs", "use crate::standings::Played;"),
    ]);
    let g = graph(&files);
    let edges: Vec<(String, String)> = g
        .edges
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |t| (name(from), name(t))))
        .collect();
    assert_eq!(
        edges,
        [("b".into(), "a".into()), ("standings".into(), "a".into())]
    );
}
