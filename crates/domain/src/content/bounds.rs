//! How much structure content may build, measured before it is sanitized.
//!
//! The HTML parser's cost is not linear in the input: most start tags look through the stack of
//! open elements (`<div>` closes a `<p>` "in button scope", walking every open element when none
//! is a scope boundary), so content nested n deep costs n² (40,000 nested `<div>` took seconds),
//! and misnested formatting elements are re-opened on every later tag, so a small input can make
//! the parser build millions of elements. A byte limit alone does not bound either.
//!
//! So the content is first parsed by the same tree builder into a sink that builds nothing but
//! counts elements and tracks their depth, fed in small chunks and stopped at the first chunk
//! that passes [`MAX_CONTENT_DEPTH`] or [`MAX_CONTENT_ELEMENTS`]. Below those limits the parse is
//! at most `MAX_CONTENT_DEPTH` steps per tag; above them the probe stops after one more chunk.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use html5ever::interface::{Attribute, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{ParseOpts, QualName, local_name, ns, parse_fragment};

/// How deep elements may nest (a top-level element is at depth 1).
pub const MAX_CONTENT_DEPTH: usize = 128;

/// How many elements the content may make the parser build (implied and re-opened ones included).
pub const MAX_CONTENT_ELEMENTS: usize = 50_000;

/// How much input the probe parses between two looks at its counters: what it may parse past a limit.
const CHUNK_BYTES: usize = 1024;

/// Why content is refused before sanitizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StructureExceeded {
    Depth,
    Elements,
}

/// Parses `raw` as the sanitizer does and stops once it nests deeper or builds more elements than
/// allowed.
pub(crate) fn check_structure(raw: &str) -> Result<(), StructureExceeded> {
    let probe = Probe::default();
    let counters = probe.counters.clone();
    let context = QualName::new(None, ns!(html), local_name!("div"));
    let mut parser = parse_fragment(probe, ParseOpts::default(), context, vec![], false);
    // The context element and the fragment's root are the parser's, not the content's.
    counters.elements.set(0);
    let mut rest = raw;
    while !rest.is_empty() {
        let mut end = rest.len().min(CHUNK_BYTES);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        parser.process(StrTendril::from_slice(&rest[..end]));
        counters.verdict()?;
        rest = &rest[end..];
    }
    parser.finish();
    counters.verdict()
}

#[derive(Debug, Default)]
struct Counters {
    elements: Cell<usize>,
    deepest: Cell<usize>,
}

impl Counters {
    fn verdict(&self) -> Result<(), StructureExceeded> {
        if self.deepest.get() > MAX_CONTENT_DEPTH {
            Err(StructureExceeded::Depth)
        } else if self.elements.get() > MAX_CONTENT_ELEMENTS {
            Err(StructureExceeded::Elements)
        } else {
            Ok(())
        }
    }
}

/// A node of the probe's tree: only its name (the tree builder asks for it) and its links.
#[derive(Debug)]
struct Node {
    name: QualName,
    parent: RefCell<Weak<Node>>,
    /// May hold nodes that moved away since: a child's own `parent` link is the truth.
    children: RefCell<Vec<Weak<Node>>>,
}

type Handle = Rc<Node>;

/// A tree sink that keeps links between nodes but no content. Nodes are owned by `nodes`, in one
/// flat list, so that dropping a deep tree does not recurse.
#[derive(Debug)]
struct Probe {
    nodes: RefCell<Vec<Handle>>,
    document: Handle,
    counters: Rc<Counters>,
}

impl Default for Probe {
    fn default() -> Self {
        let document = Rc::new(Node::named(QualName::new(None, ns!(), local_name!(""))));
        Self { nodes: RefCell::new(vec![document.clone()]), document, counters: Rc::default() }
    }
}

impl Node {
    fn named(name: QualName) -> Self {
        Self { name, parent: RefCell::new(Weak::new()), children: RefCell::default() }
    }

    fn is(&self, other: &Node) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Probe {
    fn add(&self, name: QualName) -> Handle {
        let node = Rc::new(Node::named(name));
        self.nodes.borrow_mut().push(node.clone());
        node
    }

    fn attach(&self, parent: &Handle, child: NodeOrText<Handle>) {
        let NodeOrText::AppendNode(child) = child else { return };
        *child.parent.borrow_mut() = Rc::downgrade(parent);
        parent.children.borrow_mut().push(Rc::downgrade(&child));
        let depth = self.depth(&child);
        if depth > self.counters.deepest.get() {
            self.counters.deepest.set(depth);
        }
    }

    /// The node's depth below the fragment's root element, counted up to one past the limit (so
    /// that each look costs at most the limit).
    fn depth(&self, node: &Handle) -> usize {
        let mut steps = 0;
        let mut current = node.parent.borrow().upgrade();
        while let Some(parent) = current {
            steps += 1;
            if steps > MAX_CONTENT_DEPTH + 1 {
                break;
            }
            current = parent.parent.borrow().upgrade();
        }
        // The fragment's elements hang below the document and its root `<html>` element.
        steps.saturating_sub(1)
    }
}

impl TreeSink for Probe {
    type Handle = Handle;
    type Output = ();
    type ElemName<'a> = &'a QualName;

    fn finish(self) {}

    fn parse_error(&self, _message: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        self.document.clone()
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> &'a QualName {
        &target.name
    }

    fn create_element(&self, name: QualName, _attrs: Vec<Attribute>, _flags: ElementFlags) -> Handle {
        self.counters.elements.set(self.counters.elements.get() + 1);
        self.add(name)
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.add(QualName::new(None, ns!(), local_name!("")))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.add(QualName::new(None, ns!(), local_name!("")))
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        self.attach(parent, child);
    }

    fn append_based_on_parent_node(&self, element: &Handle, prev_element: &Handle, child: NodeOrText<Handle>) {
        if element.parent.borrow().upgrade().is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.attach(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public_id: StrTendril, _system_id: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        // Template contents are a fragment of their own; as deep as the template for this count.
        let contents = self.add(QualName::new(None, ns!(), local_name!("")));
        self.attach(target, NodeOrText::AppendNode(contents.clone()));
        contents
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.is(y)
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        let parent = sibling.parent.borrow().upgrade();
        if let Some(parent) = parent {
            self.attach(&parent, new_node);
        }
    }

    fn add_attrs_if_missing(&self, _target: &Handle, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, target: &Handle) {
        *target.parent.borrow_mut() = Weak::new();
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let children = std::mem::take(&mut *node.children.borrow_mut());
        for child in children.iter().filter_map(Weak::upgrade) {
            let still_here = child.parent.borrow().upgrade().is_some_and(|parent| parent.is(node));
            if still_here {
                self.attach(new_parent, NodeOrText::AppendNode(child));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(tag: &str, depth: usize) -> String {
        format!("<{tag}>").repeat(depth) + "x" + &format!("</{tag}>").repeat(depth)
    }

    #[test]
    fn depth_is_counted_from_the_top_level() {
        assert_eq!(check_structure(&nested("div", MAX_CONTENT_DEPTH)), Ok(()));
        assert_eq!(check_structure(&nested("div", MAX_CONTENT_DEPTH + 1)), Err(StructureExceeded::Depth));
        assert_eq!(check_structure(&nested("span", MAX_CONTENT_DEPTH + 1)), Err(StructureExceeded::Depth));
        // Unclosed elements nest as the parser nests them.
        assert_eq!(check_structure(&"<blockquote>".repeat(MAX_CONTENT_DEPTH + 1)), Err(StructureExceeded::Depth));
    }

    #[test]
    fn elements_closed_implicitly_do_not_add_depth() {
        // `<p>` and `<li>` close their open predecessor; void elements never nest.
        let paragraphs = "<p>clause".repeat(10 * MAX_CONTENT_DEPTH);
        assert_eq!(check_structure(&paragraphs), Ok(()));
        let items = format!("<ul>{}</ul>", "<li>item".repeat(10 * MAX_CONTENT_DEPTH));
        assert_eq!(check_structure(&items), Ok(()));
        assert_eq!(check_structure(&"a<br>b<hr>".repeat(10 * MAX_CONTENT_DEPTH)), Ok(()));
    }

    #[test]
    fn reopened_formatting_elements_are_counted() {
        // Each `</div>` closes the `<b>`s, and the next tag re-opens every one of them: the parser
        // builds a quadratic number of elements, nested ever deeper, from linear input.
        let reopening: String = (0..2000).map(|i| format!("<div><b title={i}></div>")).collect();
        assert_eq!(check_structure(&reopening), Err(StructureExceeded::Depth));
    }

    #[test]
    fn many_elements_are_refused_even_when_flat() {
        let flat = "<p>x</p>".repeat(MAX_CONTENT_ELEMENTS);
        assert_eq!(check_structure(&flat), Ok(()));
        let more = "<p>x</p>".repeat(MAX_CONTENT_ELEMENTS + 1);
        assert_eq!(check_structure(&more), Err(StructureExceeded::Elements));
    }

    #[test]
    fn misnested_markup_moved_by_the_parser_keeps_being_counted() {
        // The adoption agency moves children to new elements; depth keeps being measured there.
        let misnested = "<b><p>x</b>y</p>".repeat(1000);
        assert_eq!(check_structure(&misnested), Ok(()));
        let deep_after_adoption = format!("<b><p>x</b>{}", nested("div", MAX_CONTENT_DEPTH + 1));
        assert_eq!(check_structure(&deep_after_adoption), Err(StructureExceeded::Depth));
    }

    #[test]
    fn text_across_chunk_boundaries_is_handled() {
        let multibyte = "\u{1F600}é".repeat(CHUNK_BYTES);
        assert_eq!(check_structure(&multibyte), Ok(()));
    }
}
