//! Every link a reader can follow resolves: in every Markdown file the
//! repository tracks and in every FMU's `documentation/index.html`, each
//! relative link names a file that exists (in the repository, or inside the
//! FMU), and each `#anchor` names a heading or an `id` of its target.
//! External `http(s)` links cannot be followed here (no network): their form
//! is checked and they are listed.

use fmu_tests::{fmu_path, workspace_root};
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Link targets of a Markdown text: `[text](target)` and `![alt](target)`,
/// outside code spans and fenced code blocks.
fn markdown_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a link inside backticks is text.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
            links.push(target);
            rest = &after[end..];
        }
    }
    links
}

/// `href="..."` and `src="..."` targets of an HTML text.
fn html_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    for attribute in ["href=\"", "src=\""] {
        let mut rest = text;
        while let Some(i) = rest.find(attribute) {
            let after = &rest[i + attribute.len()..];
            let end = after.find('"').unwrap_or(after.len());
            links.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    links
}

/// GitHub's anchor of a Markdown heading: lower case, punctuation dropped
/// except `-` and `_`, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Anchors a file offers: Markdown headings' slugs and HTML `id`s.
fn anchors(text: &str, markdown: bool) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    if markdown {
        let mut fenced = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
            }
            if !fenced && line.starts_with('#') {
                set.insert(slug(line.trim_start_matches('#').replace('`', "").as_str()));
            }
        }
    }
    let mut rest = text;
    while let Some(i) = rest.find("id=\"") {
        let after = &rest[i + 4..];
        let end = after.find('"').unwrap_or(after.len());
        set.insert(after[..end].to_string());
        rest = &after[end..];
    }
    set
}

/// A link's problem, if any. `exists` tells whether a path (relative to
/// the link's base) is there; `anchors_of` gives the anchors of a target.
fn check_link(
    link: &str,
    base: &Path,
    exists: &dyn Fn(&Path) -> bool,
    anchors_of: &dyn Fn(&Path) -> Option<BTreeSet<String>>,
    own: &Path,
    external: &mut BTreeSet<String>,
) -> Option<String> {
    if link.is_empty() {
        return Some("empty link".into());
    }
    if link.starts_with("http://") || link.starts_with("https://") {
        let host = link.split("//").nth(1).unwrap_or("").split('/').next().unwrap_or("");
        if host.is_empty() || !host.contains('.') || link.contains(' ') {
            return Some(format!("malformed URL {link}"));
        }
        external.insert(link.to_string());
        return None;
    }
    if link.starts_with("mailto:") || link.starts_with("data:") {
        return None;
    }
    let (path, anchor) = match link.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (link, None),
    };
    let target = if path.is_empty() { own.to_path_buf() } else { normalize(&base.join(path)) };
    if !path.is_empty() && !exists(&target) {
        return Some(format!("{link}: {} does not exist", target.display()));
    }
    if let Some(anchor) = anchor {
        if let Some(set) = anchors_of(&target) {
            if !set.contains(anchor) {
                return Some(format!("{link}: no anchor #{anchor} in {}", target.display()));
            }
        }
    }
    None
}

/// `a/b/../c` -> `a/c` (without touching the file system).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The Markdown files of the working tree that git tracks or would track
/// (new pages before their commit; not the ignored ones), as they are on
/// disk (a file deleted but not yet committed is gone).
fn tracked_markdown() -> Vec<PathBuf> {
    let root = workspace_root();
    let out = std::process::Command::new("git")
        .args(["ls-files", "--cached", "--others", "--exclude-standard", "*.md"])
        .current_dir(&root)
        .output()
        .expect("git ls-files");
    let mut files: Vec<PathBuf> =
        String::from_utf8_lossy(&out.stdout).lines().map(|l| root.join(l)).filter(|p| p.exists()).collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn every_link_in_the_repository_resolves() {
    let files = tracked_markdown();
    assert!(files.len() >= 5, "git ls-files found only {files:?}");
    let mut problems = Vec::new();
    let mut external = BTreeSet::new();
    let anchors_of = |p: &Path| {
        let markdown = p.extension().is_some_and(|e| e == "md");
        let html = p.extension().is_some_and(|e| e == "html");
        (markdown || html).then(|| anchors(&std::fs::read_to_string(p).unwrap_or_default(), markdown))
    };
    let mut count = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for link in markdown_links(&text) {
            count += 1;
            if let Some(p) =
                check_link(&link, file.parent().unwrap(), &|p| p.exists(), &anchors_of, file, &mut external)
            {
                problems.push(format!("{}: {p}", file.strip_prefix(workspace_root()).unwrap().display()));
            }
        }
    }
    println!("{count} links in {} Markdown files; external links (form checked only):", files.len());
    for e in &external {
        println!("  {e}");
    }
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

#[test]
fn every_link_in_every_fmu_page_resolves_inside_the_fmu() {
    let mut problems = Vec::new();
    let mut external = BTreeSet::new();
    for model in fmu::registry::MODELS {
        let id = model.info.identifier;
        let file = std::fs::File::open(fmu_path(id)).unwrap();
        let mut zip = zip::ZipArchive::new(file).unwrap();
        let names: BTreeSet<PathBuf> = zip.file_names().map(PathBuf::from).collect();
        let mut page = String::new();
        zip.by_name("documentation/index.html").unwrap().read_to_string(&mut page).unwrap();
        let own = PathBuf::from("documentation/index.html");
        let own_anchors = anchors(&page, false);
        let anchors_of = |p: &Path| (p == own).then(|| own_anchors.clone());
        for link in html_links(&page) {
            if let Some(p) =
                check_link(&link, Path::new("documentation"), &|p| names.contains(p), &anchors_of, &own, &mut external)
            {
                problems.push(format!("{id}.fmu documentation/index.html: {p}"));
            }
        }
    }
    for e in &external {
        println!("external (form checked only): {e}");
    }
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

#[test]
fn the_checker_finds_broken_links() {
    let text = "see [a](missing.md) and [b](#nowhere) and `[c](ignored.md)` and [d](https://example.org/x)\n# Here\n";
    assert_eq!(markdown_links(text), ["missing.md", "#nowhere", "https://example.org/x"]);
    let own = Path::new("/repo/README.md");
    let anchors_of = |_: &Path| Some(anchors(text, true));
    let mut external = BTreeSet::new();
    let check = |link: &str, external: &mut BTreeSet<String>| {
        check_link(link, Path::new("/repo"), &|p| p == own, &anchors_of, own, external)
    };
    assert!(check("missing.md", &mut external).is_some());
    assert!(check("#nowhere", &mut external).is_some());
    assert!(check("#here", &mut external).is_none());
    assert!(check("README.md#here", &mut external).is_none());
    assert!(check("https://example.org/x", &mut external).is_none());
    assert!(check("https://nohost", &mut external).is_some());
    assert_eq!(slug("Capabilities and their limits"), "capabilities-and-their-limits");
    assert_eq!(slug("`tests/`"), "tests");
}
