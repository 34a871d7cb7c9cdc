//! `ARCHITECTURE.md` stays true: every file, folder and Rust name it gives
//! in backquotes exists in the repository.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Every file under `dir`, recursively (the build's `target` left out).
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path
                .file_name()
                .is_some_and(|n| n != "target" && n != ".git")
            {
                files(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The spans in backquotes of a markdown text, outside code blocks.
fn quoted(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(span), Some(_)) = (parts.next(), parts.next()) {
            out.push(span.to_string());
        }
    }
    out
}

/// The names the Rust sources define: items (`fn name`, `struct Name`,
/// ...), struct fields, enum variants and macros.
fn definitions(sources: &[String]) -> HashSet<String> {
    let mut names = HashSet::new();
    let keywords = [
        "fn", "struct", "enum", "trait", "mod", "type", "const", "static",
    ];
    for src in sources {
        for line in src.lines() {
            let words: Vec<&str> = line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                if keywords.contains(&pair[0]) {
                    names.insert(pair[1].to_string());
                }
            }
            let t = line.trim_start().trim_start_matches("pub(crate) ");
            let t = t.trim_start_matches("pub ");
            let head: String = t
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let rest = &t[head.len()..];
            // A field (`name: T`), a variant (`Name,`, `Name {`, `Name(`)
            // or a macro (`macro_rules! name`).
            if !head.is_empty()
                && (rest.starts_with(':') && !rest.starts_with("::")
                    || rest.starts_with(',')
                    || rest.starts_with(" {")
                    || rest.starts_with('('))
            {
                names.insert(head);
            }
            if let Some(m) = t.strip_prefix("macro_rules! ") {
                names.insert(m.trim_end_matches(" {").to_string());
            }
        }
    }
    names
}

#[test]
fn every_name_in_architecture_md_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut all = Vec::new();
    files(root, &mut all);
    let file_names: HashSet<String> = all
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    let sources: Vec<String> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let mut defined = definitions(&sources);
    // The library's features count as names too (`render`, `viz`).
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let features = manifest.split("[features]").nth(1).unwrap_or("");
    let features = features.split("\n[").next().unwrap_or("");
    defined.extend(
        features
            .lines()
            .filter_map(|l| l.split_once(" = "))
            .map(|(name, _)| name.trim().to_string()),
    );
    let modules: HashSet<String> = all
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .flat_map(|p| {
            p.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
        })
        .map(|c| c.trim_end_matches(".rs").to_string())
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for span in quoted(&text) {
        let span = span.trim_start_matches('&');
        let span = span.split('(').next().unwrap_or(span);
        if span.contains('<') || span.contains('*') || span.contains(' ') || span.is_empty() {
            continue;
        }
        checked += 1;
        let is_path = span.contains('/') || span.ends_with(".rs") || span.ends_with(".md");
        let found = if is_path || span.ends_with(".json") {
            let rel = span.trim_end_matches('/');
            root.join(rel).exists()
                || root.join("src").join(rel).exists()
                || file_names.contains(rel)
        } else if span.starts_with('#') {
            true
        } else {
            span.split("::")
                .all(|seg| seg == "platnav" || defined.contains(seg) || modules.contains(seg))
        };
        if !found {
            missing.push(span.to_string());
        }
    }
    assert!(checked > 100, "only {checked} names checked");
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names what does not exist: {missing:?}"
    );
}
