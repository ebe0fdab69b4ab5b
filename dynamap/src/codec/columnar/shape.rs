//! The record shape both sides walk: every place a value can sit (the root, a struct field,
//! a sequence element, a map key, an enum variant's content, ...) is a node, numbered in
//! the order the walk first reaches it. The writer and the reader walk the same value in
//! the same order, so they number the nodes alike without storing the shape.

/// How a node hangs off its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Edge {
    /// A struct field, by name.
    Field,
    /// A tuple element, by position.
    Index,
    /// Every element of a sequence.
    Elem,
    /// Every key of a map.
    Key,
    /// Every value of a map.
    Value,
    /// The content of an enum variant, by variant name.
    Variant,
}

/// A node id; also the index of its column in the columnar layout.
pub(crate) type Node = usize;

/// The nodes met so far.
#[derive(Debug)]
pub(crate) struct Shape {
    /// Row layout: every node shares column 0, so values are stored in visiting order.
    single_column: bool,
    children: Vec<Vec<Child>>,
}

#[derive(Debug)]
struct Child {
    edge: Edge,
    position: usize,
    name: Box<str>,
    node: Node,
}

impl Shape {
    pub(crate) fn new(single_column: bool) -> Self {
        Self {
            single_column,
            children: vec![Vec::new()],
        }
    }

    /// The root node.
    pub(crate) const ROOT: Node = 0;

    /// The child of `parent` along `edge`, created on first use.
    pub(crate) fn child(&mut self, parent: Node, edge: Edge, position: usize, name: &str) -> Node {
        if self.single_column {
            return Self::ROOT;
        }
        // Structs have few fields and enums few variants: a scan beats hashing here.
        if let Some(found) = self.children[parent]
            .iter()
            .find(|c| c.edge == edge && c.position == position && &*c.name == name)
        {
            return found.node;
        }
        let node = self.children.len();
        self.children.push(Vec::new());
        self.children[parent].push(Child {
            edge,
            position,
            name: name.into(),
            node,
        });
        node
    }
}
