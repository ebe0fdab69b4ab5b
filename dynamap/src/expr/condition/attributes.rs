//! The attributes a condition reads, for checks that depend on where it is used (a query
//! filter may not name the queried index's key attributes).

use super::{Condition, Node};

impl<E> Condition<E> {
    /// The top-level attributes the condition reads, each once, in the order they first
    /// appear. A condition that did not build reads none: rendering reports its error.
    pub(crate) fn attributes(&self) -> Vec<&str> {
        let mut found = Vec::new();
        if let Ok(node) = &self.node {
            collect(node, &mut found);
        }
        found
    }
}

fn collect<'a>(node: &'a Node, found: &mut Vec<&'a str>) {
    let path = match node {
        Node::Compare(path, ..)
        | Node::Between(path, ..)
        | Node::In(path, _)
        | Node::BeginsWith(path, _)
        | Node::Contains(path, _)
        | Node::Exists(path)
        | Node::NotExists(path)
        | Node::HasType(path, _)
        | Node::Size(path, ..) => path,
        Node::And(a, b) | Node::Or(a, b) => {
            collect(a, found);
            collect(b, found);
            return;
        }
        Node::Not(inner) => return collect(inner, found),
    };
    if !found.contains(&path.root()) {
        found.push(path.root());
    }
}

#[cfg(test)]
mod tests {
    use crate::expr::Attr;

    struct Sensor;
    const CITY: Attr<Sensor, String> = Attr::new("city");
    const FLOOR: Attr<Sensor, i32> = Attr::new("floor");
    const PLACE: Attr<Sensor, std::collections::BTreeMap<String, String>> = Attr::new("place");

    #[test]
    fn every_top_level_attribute_once_through_combinators_and_paths() {
        let condition = (CITY.eq("A").or(!FLOOR.gt(2)))
            .and(CITY.size().ge(1))
            .and(PLACE.key("PK").exists());
        // A map key is not an attribute: only `place` is read at the top level.
        assert_eq!(condition.attributes(), ["city", "floor", "place"]);
    }

    #[test]
    fn a_condition_that_did_not_build_reads_nothing() {
        let none: [&str; 0] = [];
        assert!(CITY.is_in(none).attributes().is_empty());
    }
}
