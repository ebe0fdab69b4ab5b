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
    nodes: Vec<Children>,
}

#[derive(Debug, Default)]
struct Children {
    list: Vec<Child>,
    /// Where the next lookup starts: records visit their fields in the same order every
    /// time, so the child after the last one found is almost always the next one asked for.
    next: usize,
}

#[derive(Debug)]
struct Child {
    edge: Edge,
    position: usize,
    name: Box<str>,
    /// Where the name was last seen: names are static strings when writing and slices of
    /// the input when reading, so the same name comes back at the same address, and an
    /// address match spares the string comparison.
    seen_at: usize,
    node: Node,
    /// For a struct field: the field name's dictionary code in the parent's column, so the
    /// writer does not look the name up again.
    code: Option<u64>,
}

impl Shape {
    pub(crate) fn new(single_column: bool) -> Self {
        Self {
            single_column,
            nodes: vec![Children::default()],
        }
    }

    /// The root node.
    pub(crate) const ROOT: Node = 0;

    pub(crate) fn single_column(&self) -> bool {
        self.single_column
    }

    /// The child of `parent` along `edge`, created on first use.
    pub(crate) fn child(&mut self, parent: Node, edge: Edge, position: usize, name: &str) -> Node {
        if self.single_column {
            return Self::ROOT;
        }
        match self.find(parent, edge, position, name) {
            Some(found) => self.nodes[parent].list[found].node,
            None => self.add(parent, edge, position, name, None),
        }
    }

    /// The node of struct field `name` under `parent` and the name's dictionary code, if
    /// the field was met before.
    pub(crate) fn field(&mut self, parent: Node, name: &str) -> Option<(Node, u64)> {
        let found = self.find(parent, Edge::Field, 0, name)?;
        let child = &self.nodes[parent].list[found];
        Some((child.node, child.code?))
    }

    /// Records struct field `name` under `parent`, with the name's dictionary code.
    pub(crate) fn add_field(&mut self, parent: Node, name: &str, code: u64) -> Node {
        self.add(parent, Edge::Field, 0, name, Some(code))
    }

    /// Finds a child. Names must stay alive and unchanged while the shape is in use (see
    /// `Child::seen_at`).
    fn find(&mut self, parent: Node, edge: Edge, position: usize, name: &str) -> Option<usize> {
        let children = &mut self.nodes[parent];
        let address = name.as_ptr() as usize;
        let matches = |c: &Child| {
            c.edge == edge
                && c.position == position
                && c.name.len() == name.len()
                && (c.seen_at == address || &*c.name == name)
        };
        // Structs have few fields and enums few variants: the hint, then a scan, beats hashing.
        let hint = if children.next < children.list.len() {
            children.next
        } else {
            0
        };
        let found = if children.list.get(hint).is_some_and(matches) {
            hint
        } else {
            children.list.iter().position(matches)?
        };
        children.next = found + 1;
        children.list[found].seen_at = address;
        Some(found)
    }

    fn add(
        &mut self,
        parent: Node,
        edge: Edge,
        position: usize,
        name: &str,
        code: Option<u64>,
    ) -> Node {
        let node = self.nodes.len();
        self.nodes.push(Children::default());
        let children = &mut self.nodes[parent];
        children.list.push(Child {
            edge,
            position,
            name: name.into(),
            seen_at: name.as_ptr() as usize,
            node,
            code,
        });
        children.next = children.list.len();
        node
    }
}
