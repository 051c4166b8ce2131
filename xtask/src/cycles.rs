//! Import cycles between the modules of one crate: `cargo xtask cycles`, and the tidy test that keeps
//! the domain free of them (`xtask/tests/tidy.rs` includes this file).
//!
//! A module is a source file (`src/a/b.rs` or `src/a/b/mod.rs` is `a::b`; other inline modules
//! count as their file). What is built only for the tests (`#[cfg(test)] mod …`, inline or a file)
//! is left out: it is not part of the layering the crate's code has. Module A depends on module B when A names a path into B: in a
//! `use` (`crate::…`, `super::…`, `self::…` or a child module) or in code (`crate::…`, `super::…`).
//! A name the crate root re-exports (`crate::AppId`) leads to the module that defines it. A cycle is a
//! strongly connected component of that graph with more than one module. Comments and string
//! literals are left out, so a doc link is not an import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (`""` for the crate root) → the modules it depends on.
pub(crate) type ModuleGraph = BTreeMap<String, BTreeSet<String>>;

/// The module graph of the crate whose sources are under `src` (rooted at `lib.rs` or `main.rs`;
/// `src/bin` is left out).
pub(crate) fn module_graph(src: &Path) -> Result<ModuleGraph, String> {
    let mut files = Vec::new();
    rust_files(src, &mut files)?;
    let mut sources = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).map_err(|error| error.to_string())?;
        if relative.starts_with("bin") {
            continue;
        }
        let text =
            std::fs::read_to_string(&file).map_err(|error| format!("cannot read {}: {error}", file.display()))?;
        sources.insert(module_of_file(relative), strip_comments_and_strings(&text));
    }
    // Modules built only for the tests are left out, as are inline `#[cfg(test)]` modules.
    let mut test_only = BTreeSet::new();
    for (module, code) in &sources {
        for child in test_only_children(code) {
            test_only.insert(if module.is_empty() { child } else { format!("{module}::{child}") });
        }
    }
    sources
        .retain(|module, _| !test_only.iter().any(|test| module == test || module.starts_with(&format!("{test}::"))));
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    let root_reexports = sources.get("").map(|root| reexports(root, &modules)).unwrap_or_default();

    let mut graph = ModuleGraph::new();
    for (module, code) in &sources {
        let mut targets = BTreeSet::new();
        for (scope, path) in paths_named(code) {
            let scope = join(module, &scope);
            let Some(absolute) = absolute_path(&scope, &path, &modules) else {
                continue;
            };
            let mut target = owning_module(&absolute, &modules);
            if let (true, Some(source)) =
                (target.is_empty(), absolute.first().and_then(|name| root_reexports.get(name)))
            {
                target = source.clone();
            }
            if target != *module {
                targets.insert(target);
            }
        }
        graph.insert(module.clone(), targets);
    }
    Ok(graph)
}

/// The import cycles of `graph`: its strongly connected components of more than one module, each
/// sorted, in order.
pub(crate) fn cycles(graph: &ModuleGraph) -> Vec<Vec<String>> {
    let mut tarjan = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        next: 0,
        components: Vec::new(),
    };
    for module in graph.keys() {
        if !tarjan.index.contains_key(module.as_str()) {
            tarjan.visit(module);
        }
    }
    let mut cycles: Vec<Vec<String>> = tarjan
        .components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let mut names: Vec<String> = component.into_iter().map(display_name).collect();
            names.sort();
            names
        })
        .collect();
    cycles.sort();
    cycles
}

/// The imports that make `cycle`: each member with the members it depends on.
pub(crate) fn cycle_edges(graph: &ModuleGraph, cycle: &[String]) -> Vec<(String, Vec<String>)> {
    let module_of = |name: &String| if name == "crate" { String::new() } else { name.clone() };
    cycle
        .iter()
        .map(|member| {
            let targets = graph.get(&module_of(member)).into_iter().flatten();
            let inside = targets.map(|target| display_name(target)).filter(|target| cycle.contains(target));
            (member.clone(), inside.collect())
        })
        .collect()
}

/// `crate` for the root, else the module path.
fn display_name(module: &str) -> String {
    if module.is_empty() { "crate".to_owned() } else { module.to_owned() }
}

struct Tarjan<'g> {
    graph: &'g ModuleGraph,
    index: BTreeMap<&'g str, usize>,
    low: BTreeMap<&'g str, usize>,
    stack: Vec<&'g str>,
    on_stack: BTreeSet<&'g str>,
    next: usize,
    components: Vec<Vec<&'g str>>,
}

impl<'g> Tarjan<'g> {
    fn visit(&mut self, module: &'g str) {
        self.index.insert(module, self.next);
        self.low.insert(module, self.next);
        self.next += 1;
        self.stack.push(module);
        self.on_stack.insert(module);
        for target in self.graph.get(module).into_iter().flatten() {
            let target = target.as_str();
            if !self.index.contains_key(target) {
                self.visit(target);
                let lowest = number(&self.low, module).min(number(&self.low, target));
                self.low.insert(module, lowest);
            } else if self.on_stack.contains(target) {
                let lowest = number(&self.low, module).min(number(&self.index, target));
                self.low.insert(module, lowest);
            }
        }
        if number(&self.low, module) == number(&self.index, module) {
            let mut component = Vec::new();
            while let Some(member) = self.stack.pop() {
                self.on_stack.remove(member);
                component.push(member);
                if member == module {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}

/// A module's number in Tarjan's walk (every visited module has one).
fn number(numbers: &BTreeMap<&str, usize>, module: &str) -> usize {
    numbers.get(module).copied().unwrap_or(usize::MAX)
}

/// Every `.rs` file under `dir`, at any depth (also for the tidy tests).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|error| format!("cannot list {}: {error}", dir.display()))?;
    for path in entries.filter_map(Result::ok).map(|entry| entry.path()) {
        if path.is_dir() {
            rust_files(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
    Ok(())
}

/// `a/b.rs` and `a/b/mod.rs` → `a::b`; `lib.rs` and `main.rs` → the root, `""`.
fn module_of_file(relative: &Path) -> String {
    let mut parts: Vec<String> = relative.iter().map(|part| part.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        let is_root = parts.is_empty() && (stem == "lib" || stem == "main");
        if stem != "mod" && !is_root {
            parts.push(stem.to_owned());
        }
    }
    parts.join("::")
}

fn join(module: &str, inline: &[String]) -> Vec<String> {
    module.split("::").filter(|part| !part.is_empty()).map(str::to_owned).chain(inline.iter().cloned()).collect()
}

/// The source with comments, string and character literals blanked out (line breaks kept).
fn strip_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = at(i);
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && at(i) != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
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
        } else if c == 'r'
            && (at(i + 1) == '"' || (at(i + 1) == '#' && matches!(at(i + 2), '"' | '#')))
            && starts_literal(&chars, i)
        {
            // A raw string: r"…", r#"…"#, …, and raw byte strings: br"…", br#"…"#
            let mut hashes = 0;
            i += 1;
            while at(i) == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            while i < chars.len() {
                if at(i) == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                    i += 1 + hashes;
                    break;
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < chars.len() && at(i) != '"' {
                i += if at(i) == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && at(i + 1) == '\\' {
            // An escaped character: '\n', '\'', '\\', '\x41', '\u{…}'. The escaped character itself
            // may be a quote, so the search for the closing one starts after it.
            i += 3;
            while i < chars.len() && at(i) != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && at(i + 2) == '\'' {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the `r` at `i` starts a raw (byte) string literal rather than ending a name (`for"…"`
/// is no literal): what comes before it, or before its `b`, is no part of a name.
fn starts_literal(chars: &[char], i: usize) -> bool {
    let is_name = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let before = i.checked_sub(1).and_then(|j| chars.get(j));
    if before == Some(&'b') {
        return !is_name(i.checked_sub(2).and_then(|j| chars.get(j)));
    }
    !is_name(before)
}

/// Every path the code names that may lead into another module of the crate, with the inline
/// modules (`mod tests { … }`) it is named in: the paths of `use` trees, and `crate::…`,
/// `super::…` paths in code.
fn paths_named(code: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let tokens = tokenize(code);
    let mut found = Vec::new();
    // Open inline modules, each with the brace depth at which it closes.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        let scope: Vec<String> = inline.iter().map(|(name, _)| name.clone()).collect();
        match token.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if inline.last().is_some_and(|(_, closes_at)| *closes_at == depth) {
                    inline.pop();
                }
            }
            "mod" => {
                if let (Some(name), Some(brace)) = (tokens.get(i + 1), tokens.get(i + 2)) {
                    if brace == "{" && is_test_only(&tokens, i) {
                        i = matching_close(&tokens, i + 2) + 1;
                        continue;
                    }
                    if brace == "{" {
                        inline.push((name.clone(), depth));
                        depth += 1;
                        i += 3;
                        continue;
                    }
                }
            }
            "use" => {
                let end =
                    tokens.iter().skip(i).position(|token| token == ";").map_or(tokens.len(), |offset| i + offset);
                let mut paths = Vec::new();
                use_tree(tokens.get(i + 1..end).unwrap_or_default(), &[], &mut paths);
                found.extend(paths.into_iter().map(|path| (scope.clone(), path)));
                i = end + 1;
                continue;
            }
            "crate" | "super" if tokens.get(i + 1).is_some_and(|next| next == "::") => {
                let preceded_by_path = i > 0 && tokens.get(i - 1).is_some_and(|previous| previous == "::");
                let mut path = vec![token.clone()];
                let mut j = i + 1;
                while tokens.get(j).is_some_and(|sep| sep == "::")
                    && tokens.get(j + 1).is_some_and(|name| is_identifier(name))
                {
                    path.extend(tokens.get(j + 1).cloned());
                    j += 2;
                }
                if !preceded_by_path {
                    found.push((scope, path));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// Whether the `mod` at `at` is marked `#[cfg(test)]` (its code is built only for the tests): any
/// of the outer attributes before it (and before its visibility, `pub(crate) mod`) says so.
fn is_test_only(tokens: &[String], at: usize) -> bool {
    let token = |i: usize| tokens.get(i).map_or("", String::as_str);
    // Back over the visibility: `pub`, `pub(crate)`, `pub(in a::b)`.
    let mut end = at;
    if end > 0 && token(end - 1) == ")" {
        let open = (0..end - 1).rev().find(|&i| token(i) == "(");
        if let Some(open) = open.filter(|&open| open > 0 && token(open - 1) == "pub") {
            end = open;
        }
    }
    if end > 0 && token(end - 1) == "pub" {
        end -= 1;
    }
    // Then over the attributes, `#[…]` each, the last first.
    while end > 0 && token(end - 1) == "]" {
        let mut depth = 0;
        let mut open = None;
        for i in (0..end).rev() {
            match token(i) {
                "]" => depth += 1,
                "[" => {
                    depth -= 1;
                    if depth == 0 {
                        open = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(open) = open.filter(|&open| open > 0 && token(open - 1) == "#") else {
            return false;
        };
        let inside = tokens.get(open + 1..end - 1).unwrap_or_default();
        if inside.iter().map(String::as_str).eq(["cfg", "(", "test", ")"]) {
            return true;
        }
        end = open - 1;
    }
    false
}

/// The file modules declared `#[cfg(test)] mod name;` in `code`.
fn test_only_children(code: &str) -> Vec<String> {
    let tokens = tokenize(code);
    let mut names = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        if token == "mod" && tokens.get(i + 2).is_some_and(|next| next == ";") && is_test_only(&tokens, i) {
            names.extend(tokens.get(i + 1).cloned());
        }
    }
    names
}

fn is_identifier(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::`, and every other character on its own.
fn tokenize(code: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&next) = chars.peek() {
                if next.is_alphanumeric() || next == '_' {
                    word.push(next);
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push(word);
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            tokens.push("::".to_owned());
        } else if !c.is_whitespace() {
            tokens.push(c.to_string());
        }
    }
    tokens
}

/// The paths of a `use` tree (`a::{b::C, d}` → `a::b::C`, `a::d`), each to its last name.
fn use_tree(tokens: &[String], prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        match token.as_str() {
            "::" => {}
            "{" => {
                let inner = matching_close(tokens, i);
                for part in split_top_level(tokens.get(i + 1..inner).unwrap_or_default()) {
                    use_tree(part, &path, out);
                }
                return;
            }
            "as" => break,
            "*" => break,
            name => path.push(name.to_owned()),
        }
        i += 1;
    }
    if !path.is_empty() {
        out.push(path);
    }
}

fn matching_close(tokens: &[String], open: usize) -> usize {
    let mut depth = 0;
    for (offset, token) in tokens.iter().enumerate().skip(open) {
        match token.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return offset;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

fn split_top_level(tokens: &[String]) -> Vec<&[String]> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.extend(tokens.get(start..i));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.extend(tokens.get(start..));
    parts.into_iter().filter(|part| !part.is_empty()).collect()
}

/// The path from the crate root that `path`, named in module `scope`, stands for; `None` for a
/// path into another crate.
fn absolute_path(scope: &[String], path: &[String], modules: &BTreeSet<String>) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => Some(rest.to_vec()),
        "self" => Some(without_supers(scope.iter().chain(rest))),
        "super" => Some(without_supers(scope.iter().take(scope.len().saturating_sub(1)).chain(rest))),
        _ => {
            // A child module of the file's module (edition 2018 paths), else another crate.
            let child = scope.iter().chain(std::iter::once(first)).cloned().collect::<Vec<_>>().join("::");
            modules.contains(&child).then(|| scope.iter().chain(path).cloned().collect())
        }
    }
}

/// `a::b::super::c` (from `super::super::c`) → `a::c`.
fn without_supers<'a>(path: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut resolved: Vec<String> = Vec::new();
    for segment in path {
        if segment == "super" {
            resolved.pop();
        } else {
            resolved.push(segment.clone());
        }
    }
    resolved
}

/// The longest prefix of `path` that is a module (a file) of the crate.
fn owning_module(path: &[String], modules: &BTreeSet<String>) -> String {
    (0..=path.len())
        .rev()
        .map(|len| path.get(..len).unwrap_or_default().join("::"))
        .find(|candidate| modules.contains(candidate))
        .unwrap_or_default()
}

/// The names the crate root re-exports (`pub use ids::AppId;`) → the module they come from.
fn reexports(root: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for (scope, path) in paths_named(root) {
        let Some(absolute) = absolute_path(&scope, &path, modules).filter(|_| scope.is_empty()) else {
            continue;
        };
        let source = owning_module(&absolute, modules);
        if let (Some(name), false) = (absolute.last(), source.is_empty()) {
            names.insert(name.clone(), source);
        }
    }
    names
}

/// Every `crates/*` directory that holds a Cargo package, in order (also for the tidy tests).
pub(crate) fn crate_dirs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let crates = root.join("crates");
    let entries = std::fs::read_dir(&crates).map_err(|error| format!("cannot list {}: {error}", crates.display()))?;
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Every crate of the workspace (`crates/*` and `xtask`) with its module graph, in order.
pub(crate) fn workspace_graphs(root: &Path) -> Result<Vec<(String, ModuleGraph)>, String> {
    let mut dirs: Vec<PathBuf> = crate_dirs(root)?.into_iter().filter(|dir| dir.join("src").is_dir()).collect();
    dirs.push(root.join("xtask"));
    dirs.sort();
    let mut result = Vec::new();
    for dir in dirs {
        let name = dir.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
        result.push((name, module_graph(&dir.join("src"))?));
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(code: &str) -> Vec<(Vec<String>, Vec<String>)> {
        paths_named(&strip_comments_and_strings(code))
    }

    fn path(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn a_test_module_is_left_out_whichever_of_its_attributes_says_cfg_test() {
        let code = "#[allow(dead_code)]\n#[cfg(test)]\npub(crate) mod tests { use crate::a::X; }\n\
                    #[cfg(test)]\n#[path = \"other.rs\"]\nmod other_tests { use crate::b::Y; }\n\
                    mod kept { use crate::c::Z; }";
        assert_eq!(named(code), vec![(path(&["kept"]), path(&["crate", "c", "Z"]))]);

        let files = "#[cfg(test)]\n#[path = \"t.rs\"]\nmod t;\n#[allow(dead_code)]\n#[cfg(test)]\npub(super) mod u;\n\
                     #[cfg(feature = \"x\")]\nmod v;";
        assert_eq!(test_only_children(&strip_comments_and_strings(files)), ["t", "u"]);
    }

    #[test]
    fn paths_inside_raw_byte_strings_and_after_an_escaped_quote_are_no_imports() {
        let code = "const A: &[u8] = br#\"say \"crate::x\" aloud\"#;\n\
                    const B: [char; 2] = ['\\'','\"'];\n\
                    use crate::y;";
        assert_eq!(named(code), vec![(Vec::new(), path(&["crate", "y"]))]);
    }
}
