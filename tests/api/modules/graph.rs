//! The library's modules and what each depends on, read from the source text (no compiler
//! needed), and the circles among them.
//!
//! - Every `.rs` file under `src/` is a module, named by its path (`engine/chess/scoring`;
//!   a `mod.rs` is its folder, `lib.rs` the crate root), except `main.rs` and `src/cli/` (the
//!   binary); an inline `mod` is part of its file. Test code is left out: `#[cfg(test)] mod`
//!   items, and files or folders named `tests…` or `…_tests`. Comments, strings and character
//!   literals are blanked first.
//! - A module depends on another when it names a path into it: any path of a `use` item
//!   (brace groups expanded; a path without `crate::`, `super::` or `self::` counts when it
//!   names a child module's file), and every `crate::…`, `super::…` or `self::…` path written
//!   in its code.
//! - A path reaches the file that defines the item: through a `pub use` of the file it names
//!   (`scoring::GameResult` where scoring re-exports `games::GameResult` is a dependency on
//!   `games`). A `pub use` is itself a dependency when it re-exports from elsewhere in the
//!   library, not when a module re-exports its own parts (a folder's `mod.rs` naming what its
//!   files define).
//! - A module naming itself or the crate root is no dependency.
//!
//! A circle is a strongly connected component of more than one module; [`describe`] names its
//! modules, every dependency inside it and the path that makes each.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module's path below the crate root (`["engine", "chess", "scoring"]`).
pub type Module = Vec<String>;

pub fn name(m: &[String]) -> String {
    m.join("/")
}

/// The library's source files by module, as the rules above name them (`src` is the folder).
pub fn library_files(src: &Path) -> BTreeMap<Module, String> {
    fn walk(dir: &Path, at: &[String], out: &mut BTreeMap<Module, String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let file = path
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if path.is_dir() {
                if at.is_empty() && file == "cli" {
                    continue;
                }
                let mut below = at.to_vec();
                below.push(file);
                walk(&path, &below, out);
            } else if let Some(stem) = file.strip_suffix(".rs") {
                if at.is_empty() && stem == "main" {
                    continue;
                }
                let mut module = at.to_vec();
                if stem != "mod" && stem != "lib" {
                    module.push(stem.to_string());
                }
                let text = std::fs::read_to_string(&path)
                    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.insert(module, text);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(src, &[], &mut out);
    out
}

/// Whether a module is test code by its name.
fn is_test(m: &[String]) -> bool {
    m.iter()
        .any(|s| s.starts_with("tests") || s.ends_with("_tests"))
}

/// The text with comments, strings and character literals blanked (lifetimes kept).
fn blank(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let ident = |i: usize| c[i].is_alphanumeric() || c[i] == '_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (i == 0 || !ident(i - 1) || (c[i - 1] == 'b' && (i == 1 || !ident(i - 2))))
            && matches!(next, Some('"') | Some('#'))
        {
            // A raw string r"…", r#"…"#, br"…": ends at a quote followed by as many hashes.
            let mut j = i + 1;
            while j < c.len() && c[j] == '#' {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            j += 1;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')))
            {
                j += 1;
            }
            i = j + 1 + hashes;
            out.push(' ');
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' && next == Some('\\') {
            i += 3;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Identifiers, `::`, and every other character on its own (whitespace dropped).
fn tokens(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_whitespace() {
            i += 1;
        } else if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            out.push(c[i].to_string());
            i += 1;
        }
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The index after the bracket group opening at `i` (`(`, `[` or `{`).
fn after_group(t: &[String], i: usize) -> usize {
    let mut depth = 0i32;
    let mut j = i;
    while j < t.len() {
        match t[j].as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    t.len()
}

/// The tokens without `#[cfg(test)] mod …;` and `#[cfg(test)] mod … { … }` items.
fn without_test_modules(t: Vec<String>) -> Vec<String> {
    let cfg_test = ["#", "[", "cfg", "(", "test", ")", "]"];
    let mut out = Vec::with_capacity(t.len());
    let mut i = 0;
    'scan: while i < t.len() {
        if t[i..].starts_with(&cfg_test.map(String::from)) {
            let mut j = i + cfg_test.len();
            while t.get(j).is_some_and(|x| x == "#") && t.get(j + 1).is_some_and(|x| x == "[") {
                j = after_group(&t, j + 1);
            }
            if t.get(j).is_some_and(|x| x == "pub") {
                j += 1;
                if t.get(j).is_some_and(|x| x == "(") {
                    j = after_group(&t, j);
                }
            }
            if t.get(j).is_some_and(|x| x == "mod") && t.get(j + 1).is_some_and(|x| is_ident(x)) {
                match t.get(j + 2).map(String::as_str) {
                    Some(";") => {
                        i = j + 3;
                        continue 'scan;
                    }
                    Some("{") => {
                        i = after_group(&t, j + 2);
                        continue 'scan;
                    }
                    _ => {}
                }
            }
        }
        out.push(t[i].clone());
        i += 1;
    }
    out
}

/// One path of a `use` item and the name it binds (`*` for a glob).
#[derive(Debug, Clone)]
struct UsePath {
    path: Vec<String>,
    binds: String,
}

/// Expands the use tree starting at `t[*i]` under `prefix`, up to a `,`, `}` or `;`.
fn use_tree(t: &[String], i: &mut usize, prefix: &[String], out: &mut Vec<UsePath>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*i).map(String::as_str) {
            Some("{") => {
                *i += 1;
                while t.get(*i).is_some_and(|x| x != "}") {
                    let at = *i;
                    use_tree(t, i, &path, out);
                    if t.get(*i).is_some_and(|x| x == ",") || *i == at {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            Some("*") => {
                *i += 1;
                path.push("*".to_string());
                out.push(UsePath {
                    path,
                    binds: "*".to_string(),
                });
                return;
            }
            Some("::") => *i += 1,
            Some(x) if is_ident(x) => {
                path.push(x.to_string());
                *i += 1;
                if t.get(*i).is_some_and(|x| x == "::") {
                    continue;
                }
                let mut binds = if x == "self" && path.len() > 1 {
                    path[path.len() - 2].clone()
                } else {
                    x.to_string()
                };
                if t.get(*i).is_some_and(|x| x == "as") {
                    binds = t.get(*i + 1).cloned().unwrap_or_default();
                    *i += 2;
                }
                out.push(UsePath { path, binds });
                return;
            }
            _ => return,
        }
    }
}

/// What a module's code names: the paths of its `use` items (re-exports apart) and the
/// `crate::`/`super::`/`self::` paths of the rest.
#[derive(Debug, Default)]
struct Names {
    uses: Vec<Vec<String>>,
    reexports: Vec<UsePath>,
    paths: Vec<Vec<String>>,
}

fn names(text: &str) -> Names {
    let t = without_test_modules(tokens(&blank(text)));
    let mut names = Names::default();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "use" {
            let public = (i >= 1 && t[i - 1] == "pub")
                || (i >= 2 && t[i - 1] == ")" && {
                    let open = t[..i].iter().rposition(|x| x == "(").unwrap_or(0);
                    open >= 1 && t[open - 1] == "pub"
                });
            let mut j = i + 1;
            let mut paths = Vec::new();
            use_tree(&t, &mut j, &[], &mut paths);
            if public {
                names.reexports.extend(paths);
            } else {
                names.uses.extend(paths.into_iter().map(|p| p.path));
            }
            i = j;
        } else if matches!(t[i].as_str(), "crate" | "super" | "self")
            && (i == 0 || t[i - 1] != "::")
            && t.get(i + 1).is_some_and(|x| x == "::")
            && t.get(i + 2).is_some_and(|x| is_ident(x))
        {
            let mut path = vec![t[i].clone()];
            let mut j = i + 1;
            while t.get(j).is_some_and(|x| x == "::") && t.get(j + 1).is_some_and(|x| is_ident(x)) {
                path.push(t[j + 1].clone());
                j += 2;
            }
            names.paths.push(path);
            i = j;
        } else {
            i += 1;
        }
    }
    names
}

/// The module graph: every dependency with the first path that makes it.
pub struct Graph {
    pub modules: BTreeSet<Module>,
    pub edges: BTreeMap<Module, BTreeMap<Module, String>>,
}

/// The library's modules and what each names.
struct Library<'a> {
    modules: BTreeSet<Module>,
    names: BTreeMap<&'a Module, Names>,
}

impl Library<'_> {
    /// A path written in `m`, from the crate root; None when it leaves the library.
    fn absolute(&self, m: &[String], path: &[String]) -> Option<Vec<String>> {
        match path.first().map(String::as_str) {
            Some("crate") => Some(path[1..].to_vec()),
            Some("super") | Some("self") => {
                let mut at = m.to_vec();
                let mut rest = path;
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            at.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
                at.extend(rest.iter().cloned());
                Some(at)
            }
            Some(child) => {
                let mut at = m.to_vec();
                at.push(child.to_string());
                self.modules.contains(&at).then(|| {
                    let mut full = m.to_vec();
                    full.extend(path.iter().cloned());
                    full
                })
            }
            None => None,
        }
    }

    /// The file that defines what `path` (from the crate root) names: the longest module
    /// prefix, then on through that module's re-export of the next name, if it has one.
    fn resolve(&self, path: &[String], depth: usize) -> Option<Module> {
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.modules.contains(&path[..k]))?;
        let module = path[..k].to_vec();
        if let (Some(next), true) = (path.get(k), depth < 10) {
            let reexport = self.names[&module]
                .reexports
                .iter()
                .find(|r| &r.binds == next);
            if let Some(mut through) = reexport.and_then(|r| self.absolute(&module, &r.path)) {
                through.extend(path[k + 1..].iter().cloned());
                if let Some(found) = self.resolve(&through, depth + 1) {
                    return Some(found);
                }
            }
        }
        Some(module)
    }
}

pub fn graph(files: &BTreeMap<Module, String>) -> Graph {
    let library = Library {
        modules: files.keys().cloned().collect(),
        names: files.iter().map(|(m, t)| (m, names(t))).collect(),
    };
    let mut edges: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for (&m, n) in &library.names {
        if is_test(m) {
            continue;
        }
        let own_part = |r: &&UsePath| {
            library
                .absolute(m, &r.path)
                .is_some_and(|a| a.starts_with(m))
        };
        let written = n
            .uses
            .iter()
            .map(|p| ("use ", p))
            .chain(n.paths.iter().map(|p| ("", p)))
            .chain(
                n.reexports
                    .iter()
                    .filter(|r| !own_part(r))
                    .map(|r| ("pub use ", &r.path)),
            );
        for (how, path) in written {
            let Some(to) = library
                .absolute(m, path)
                .and_then(|a| library.resolve(&a, 0))
            else {
                continue;
            };
            if &to != m && !to.is_empty() && !is_test(&to) {
                edges
                    .entry(m.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| {
                        let written = path.join("::");
                        format!("{how}{}", written.trim_end_matches("::self"))
                    });
            }
        }
    }
    Graph {
        modules: library.modules,
        edges,
    }
}

/// The circles of the graph (strongly connected components of more than one module), each
/// sorted, in order.
pub fn circles(g: &Graph) -> Vec<Vec<Module>> {
    struct Tarjan<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a Module) {
            let g = self.g;
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in g.edges.get(v).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                loop {
                    let w = self.stack.pop().expect("v is on the stack");
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut t = Tarjan {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in &g.modules {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.found.sort();
    t.found
}

/// A circle for a reader: its modules, then each dependency inside it and the path behind it.
pub fn describe(g: &Graph, circle: &[Module]) -> String {
    let mut out = circle
        .iter()
        .map(|m| name(m))
        .collect::<Vec<_>>()
        .join(" | ");
    for from in circle {
        for (to, path) in g.edges.get(from).into_iter().flatten() {
            if circle.contains(to) {
                out += &format!("\n    {} -> {}   ({path})", name(from), name(to));
            }
        }
    }
    out
}
