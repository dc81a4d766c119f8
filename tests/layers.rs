//! The modules of both crates form layers: no file imports, directly or through others, a file
//! that imports it back. Read from the sources themselves, file by file: every `crate::`,
//! `super::` and `self::` path outside comments and unit tests is an arrow from its file to the
//! file of the module it names (a name the crate root re-exports is followed to the module it
//! comes from). A `mod.rs` declaring its children is no arrow. `docs/architecture.md` draws the
//! layers this keeps.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A crate's source files, by module path (`["ops", "moves"]` for `ops/moves.rs`; the crate
/// root is `[]`).
struct Crate {
    root: PathBuf,
    files: BTreeMap<Vec<String>, PathBuf>,
    /// What the crate root re-exports: a name, and the module path it comes from.
    reexports: BTreeMap<String, Vec<String>>,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `root`.
fn module_of(root: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(root).expect("under the root");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file that the check reads: comments, string and character literals and unit
/// tests (from the first `#[cfg(test)]` on) left out.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("read a source file");
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal (not a lifetime).
            i += 1;
            while i < chars.len() && chars[i] != '\'' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

impl Crate {
    fn read(root: PathBuf) -> Crate {
        let mut paths = Vec::new();
        rust_files(&root, &mut paths);
        let files: BTreeMap<_, _> = paths
            .into_iter()
            .filter(|p| p.file_name().is_some_and(|n| n != "main.rs"))
            .map(|p| (module_of(&root, &p), p))
            .collect();
        let mut c = Crate {
            root,
            files,
            reexports: BTreeMap::new(),
        };
        c.reexports = c.read_reexports();
        c
    }

    /// `pub use a::b::{X, Y};` in the crate root: `X` and `Y` come from `a::b`.
    fn read_reexports(&self) -> BTreeMap<String, Vec<String>> {
        let lib = code(&self.root.join("lib.rs"));
        let mut out = BTreeMap::new();
        for stmt in lib.split(';') {
            let s = stmt.split_whitespace().collect::<Vec<_>>().join(" ");
            let Some(rest) = s.strip_prefix("pub use ") else {
                continue;
            };
            let rest = rest.trim_start_matches("crate::");
            let (path, names) = match rest.split_once("::{") {
                Some((p, n)) => (p.to_string(), n.trim_end_matches('}').to_string()),
                None => match rest.rsplit_once("::") {
                    Some((p, n)) => (p.to_string(), n.to_string()),
                    None => continue,
                },
            };
            let path: Vec<String> = path.split("::").map(str::to_string).collect();
            for name in names.split(',') {
                let name = name.trim();
                let name = name.rsplit(" as ").next().unwrap_or(name).trim();
                if !name.is_empty() {
                    out.insert(name.to_string(), path.clone());
                }
            }
        }
        out
    }

    /// The file of the longest module prefix of `path`.
    fn file_of(&self, path: &[String]) -> Option<Vec<String>> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| self.files.contains_key(m))
    }

    /// The module a path names, from the file of module `from`: `crate::a::b::Item`,
    /// `super::a`, `self::a`; a name the crate root re-exports is followed to its origin.
    fn resolve(&self, from: &[String], path: &[&str]) -> Option<Vec<String>> {
        let (mut module, mut rest): (Vec<String>, &[&str]) = match path.first().copied()? {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (from.to_vec(), &path[1..]),
            "super" => {
                let mut m = from.to_vec();
                let mut rest = path;
                while rest.first() == Some(&"super") {
                    m.pop()?;
                    rest = &rest[1..];
                }
                (m, rest)
            }
            _ => return None,
        };
        if module.is_empty() && rest.len() == 1 {
            // `crate::Name`: what the crate root re-exports under that name.
            if let Some(origin) = self.reexports.get(rest[0]) {
                return Some(origin.clone());
            }
        }
        while let Some((s, tail)) = rest.split_first() {
            if self.file_of_exact(&[module.as_slice(), &[s.to_string()]].concat()) {
                module.push(s.to_string());
                rest = tail;
            } else {
                if module.is_empty() {
                    if let Some(origin) = self.reexports.get(*s) {
                        return Some(origin.clone());
                    }
                }
                break;
            }
        }
        Some(module)
    }

    fn file_of_exact(&self, module: &[String]) -> bool {
        self.files.contains_key(module)
    }

    /// The arrows of the file of module `from`: the modules (files) it names.
    fn arrows(&self, from: &[String]) -> BTreeSet<Vec<String>> {
        let text = code(&self.files[from]);
        let is_mod_rs = self.files[from]
            .file_name()
            .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let mut paths: Vec<Vec<String>> = Vec::new();
        // `use` declarations, their trees expanded.
        let mut rest_of_code = String::new();
        for stmt in text.split_inclusive(';') {
            let s = stmt.trim_start();
            let s = s
                .strip_prefix("pub(crate) ")
                .or_else(|| s.strip_prefix("pub "))
                .unwrap_or(s);
            match s.strip_prefix("use ") {
                Some(tree) => expand(tree.trim_end_matches(';'), "", &mut paths),
                None => rest_of_code.push_str(stmt),
            }
        }
        // Paths written in the code itself.
        let bytes = rest_of_code.as_bytes();
        for key in ["crate::", "super::", "self::"] {
            for (at, _) in rest_of_code.match_indices(key) {
                let boundary = at == 0 || {
                    let c = bytes[at - 1] as char;
                    !(c.is_alphanumeric() || c == '_' || c == ':')
                };
                if !boundary {
                    continue;
                }
                let path: String = rest_of_code[at..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                paths.push(path.split("::").map(str::to_string).collect());
            }
        }
        let mut out = BTreeSet::new();
        for path in &paths {
            let segments: Vec<&str> = path
                .iter()
                .map(String::as_str)
                .filter(|s| !s.is_empty())
                .collect();
            let Some(module) = self.resolve(from, &segments) else {
                continue;
            };
            let Some(to) = self.file_of(&module) else {
                continue;
            };
            let child_of_mod_rs = is_mod_rs && to.len() > from.len() && to.starts_with(from);
            if to.as_slice() != from && !child_of_mod_rs && !to.is_empty() {
                out.insert(to);
            }
        }
        out
    }

    /// Every arrow between the crate's files.
    fn graph(&self) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        self.files
            .keys()
            .map(|m| (m.clone(), self.arrows(m)))
            .collect()
    }
}

/// The full paths of a `use` tree (`crate::{a::B, c::{D, e}}`), each with `prefix` before it.
fn expand(tree: &str, prefix: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let path = format!("{prefix}{tree}");
            let path = path
                .split(" as ")
                .next()
                .unwrap_or(&path)
                .trim()
                .to_string();
            out.push(path.split("::").map(|s| s.trim().to_string()).collect());
        }
        Some(open) => {
            let head = &tree[..open];
            let inner = tree[open + 1..].trim_end().trim_end_matches('}');
            // Split the inside at its top-level commas.
            let mut depth = 0;
            let mut start = 0;
            let mut parts = Vec::new();
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&inner[start..i]);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            parts.push(&inner[start..]);
            for part in parts {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                if part == "self" {
                    let p = format!("{prefix}{head}");
                    out.push(
                        p.trim_end_matches("::")
                            .split("::")
                            .map(|s| s.trim().to_string())
                            .collect(),
                    );
                } else {
                    expand(part, &format!("{prefix}{head}"), out);
                }
            }
        }
    }
}

/// The strongly connected components with more than one file (Tarjan).
fn circles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
    struct State<'a> {
        graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on_stack: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<Vec<String>>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a Vec<String>) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in &s.graph[v] {
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.out
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("::")
    }
}

fn assert_acyclic(dir: &str) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let krate = Crate::read(root);
    let graph = krate.graph();
    let found = circles(&graph);
    let mut report = String::new();
    for c in &found {
        report.push_str("\ncircle:");
        for m in c {
            let inside: Vec<String> = graph[m]
                .iter()
                .filter(|t| c.contains(t))
                .map(|t| name(t))
                .collect();
            report.push_str(&format!("\n  {} -> {}", name(m), inside.join(", ")));
        }
    }
    assert!(found.is_empty(), "{dir}: files import in a circle:{report}");
    // The check reads real arrows: a crate of this size has many.
    let arrows: usize = graph.values().map(BTreeSet::len).sum();
    assert!(
        arrows > 2 * graph.len() / 3,
        "{dir}: only {arrows} arrows read"
    );
}

#[test]
fn the_service_crate_has_no_import_circle() {
    assert_acyclic("src");
}

#[test]
fn the_engine_crate_has_no_import_circle() {
    assert_acyclic("rules/src");
}

/// The match referee is a front end beside HTTP: it reads the operations and the layers
/// below, never `api` or `http`, and nothing but the crate root names it.
#[test]
fn the_referee_is_a_front_end_beside_http() {
    let krate = Crate::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src"));
    let graph = krate.graph();
    let under = |m: &[String], top: &str| m.first().is_some_and(|f| f == top);
    let mut wrong = Vec::new();
    let mut to_ops = 0;
    for (from, targets) in &graph {
        for t in targets {
            if under(from, "referee") {
                if under(t, "api") || under(t, "http") {
                    wrong.push(format!("{} -> {}", name(from), name(t)));
                }
                to_ops += usize::from(under(t, "ops"));
            } else if under(t, "referee") && !from.is_empty() {
                wrong.push(format!("{} -> {}", name(from), name(t)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows that cross the referee's layer: {wrong:?}"
    );
    // The check reads the referee's real arrows: it calls the operations.
    assert!(
        to_ops > 0,
        "no arrow from the referee to the operations read"
    );
}

/// The checker finds a circle where there is one.
#[test]
fn a_circle_is_found() {
    let dir = std::env::temp_dir().join(format!("arbiter-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "pub mod a;\npub mod b;\npub use b::Thing;\n",
    )
    .unwrap();
    std::fs::write(dir.join("a/mod.rs"), "pub mod c;\nuse self::c::X;\n").unwrap();
    std::fs::write(
        dir.join("a/c.rs"),
        "// crate::b::nothing in a comment\nuse crate::Thing;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.rs"),
        "pub struct Thing;\nfn f() { crate::a::c::g(\"crate::a\") }\n",
    )
    .unwrap();
    let krate = Crate::read(dir.clone());
    let graph = krate.graph();
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Vec<_>>();
    assert_eq!(graph[&m("a::c")], BTreeSet::from([m("b")]));
    assert_eq!(graph[&m("b")], BTreeSet::from([m("a::c")]));
    // A mod.rs using its own child is no arrow.
    assert!(graph[&m("a")].is_empty());
    assert_eq!(circles(&graph), vec![vec![m("a::c"), m("b")]]);
    std::fs::remove_dir_all(&dir).unwrap();
}
