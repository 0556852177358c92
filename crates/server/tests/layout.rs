//! The server's layout, checked: the domain folders do not know the transports (axum, hyper,
//! tower, `http/`, `socket/`), and no folder imports another that imports it back, directly
//! or around a circle. Run `scripts/layout.sh` to see the folders, their files and imports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The folders that speak a transport: only they (and `lib.rs`, which puts the server
/// together) may use axum or one another.
const TRANSPORT: [&str; 2] = ["http", "socket"];

/// Crates that belong to the transports.
const TRANSPORT_CRATES: [&str; 4] = ["axum", "hyper", "hyper_util", "tower"];

/// One source file: its folder (`lib` for the files at the top) and its code without comments.
struct Source {
    path: PathBuf,
    folder: String,
    code: String,
    lines: usize,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).expect("a source file reads");
            let relative = path.strip_prefix(&root).expect("under src").to_path_buf();
            let mut parts = relative.components();
            let folder = match (parts.next(), parts.next()) {
                (Some(first), Some(_)) => first.as_os_str().to_string_lossy().into_owned(),
                _ => "lib".to_string(),
            };
            Source {
                lines: text.lines().count(),
                code: without_comments(&text),
                path: relative,
                folder,
            }
        })
        .collect()
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code without `//` comments (doc links name modules without importing them).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The crate's folders a file names (`crate::x`; in `lib.rs`, at the crate's top, also
/// `x::`), other than its own.
fn imports(source: &Source, folders: &BTreeSet<String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let code = &source.code;
    let mut from = 0;
    while let Some(at) = code[from..].find("crate::") {
        let start = from + at + "crate::".len();
        let word: String = code[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if folders.contains(&word) && word != source.folder {
            named.insert(word);
        }
        from = start;
    }
    if source.folder == "lib" {
        for folder in folders {
            if folder != "lib" && uses_crate(code, folder) {
                named.insert(folder.clone());
            }
        }
    }
    named
}

/// Whether the code uses a crate by path (`axum::...` or `use axum`).
fn uses_crate(code: &str, name: &str) -> bool {
    let bytes = code.as_bytes();
    let mut from = 0;
    while let Some(at) = code[from..].find(name) {
        let start = from + at;
        let before = start.checked_sub(1).map(|i| bytes[i]);
        let after = &code[start + name.len()..];
        let whole = !before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':');
        if whole && after.starts_with("::") {
            return true;
        }
        from = start + name.len();
    }
    false
}

/// The folder graph: which folders each folder imports, and through which files.
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let folders: BTreeSet<String> = sources.iter().map(|s| s.folder.clone()).collect();
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for source in sources {
        let entry = edges.entry(source.folder.clone()).or_default();
        for target in imports(source, &folders) {
            entry
                .entry(target)
                .or_default()
                .insert(source.path.display().to_string());
        }
    }
    edges
}

/// A circle of folders, if there is one.
fn circle(edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, BTreeSet<String>>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path[at..].to_vec();
            found.push(node.to_string());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

#[test]
fn domain_folders_do_not_know_the_transports() {
    let sources = sources();
    let mut wrong = Vec::new();
    for source in &sources {
        if source.folder == "lib" || TRANSPORT.contains(&source.folder.as_str()) {
            continue;
        }
        for name in TRANSPORT_CRATES {
            if uses_crate(&source.code, name) {
                wrong.push(format!("{} uses {name}", source.path.display()));
            }
        }
        for folder in TRANSPORT {
            if source.code.contains(&format!("crate::{folder}::")) {
                wrong.push(format!("{} imports {folder}/", source.path.display()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "domain code knows a transport:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_folder_imports_itself_around_a_circle() {
    let sources = sources();
    let edges = graph(&sources);
    if let Some(found) = circle(&edges) {
        let steps: Vec<String> = found
            .windows(2)
            .map(|pair| {
                let files = &edges[&pair[0]][&pair[1]];
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                format!("{} -> {} (in {})", pair[0], pair[1], files.join(", "))
            })
            .collect();
        panic!("an import circle between folders:\n{}", steps.join("\n"));
    }
}

#[test]
fn the_checks_see_what_they_look_for() {
    assert!(uses_crate("use axum::Json;", "axum"));
    assert!(uses_crate("fn f() -> axum::response::Response", "axum"));
    assert!(!uses_crate("let axum_like = my_axum::x;", "axum"));
    assert!(!uses_crate("use tower_cookies;", "tower"));
    let looped = BTreeMap::from([
        (
            "a".to_string(),
            BTreeMap::from([("b".to_string(), BTreeSet::new())]),
        ),
        (
            "b".to_string(),
            BTreeMap::from([("a".to_string(), BTreeSet::new())]),
        ),
    ]);
    assert_eq!(
        circle(&looped),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
    let straight = BTreeMap::from([
        (
            "a".to_string(),
            BTreeMap::from([("b".to_string(), BTreeSet::new())]),
        ),
        ("b".to_string(), BTreeMap::new()),
    ]);
    assert_eq!(circle(&straight), None);
    assert_eq!(
        without_comments("let x = 1; // crate::http::y"),
        "let x = 1; "
    );
}

/// Prints the layout (run with `--nocapture`, or `scripts/layout.sh`).
#[test]
fn print_the_layout() {
    let sources = sources();
    let mut folders: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for source in &sources {
        let entry = folders.entry(&source.folder).or_default();
        entry.0 += 1;
        entry.1 += source.lines;
    }
    println!("folder        files  lines");
    for (folder, (files, lines)) in &folders {
        println!("{folder:<12} {files:>6} {lines:>6}");
    }
    let mut largest: Vec<&Source> = sources.iter().collect();
    largest.sort_by_key(|s| std::cmp::Reverse(s.lines));
    println!("\nlargest files:");
    for source in largest.iter().take(8) {
        println!("{:>6}  {}", source.lines, source.path.display());
    }
    println!("\nimports between folders:");
    for (folder, targets) in graph(&sources) {
        let names: Vec<&str> = targets.keys().map(String::as_str).collect();
        println!("{folder:<12} -> {}", names.join(", "));
    }
    assert!(!sources.is_empty());
}
