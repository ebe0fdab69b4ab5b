//! What [`Query::project`](super::Query::project) takes: typed field constants, or
//! attribute names.

use super::PartialRead;
use crate::expr::Attr;
use crate::sealed::{ProjectedSeal, Sealed};

/// Attributes a query reads: a field constant (`Sensor::CITY`), a tuple of field constants
/// of `T` (`(Sensor::CITY, Sensor::FLOOR)`, up to twelve), or attribute names
/// (`["city", "floor"]`), for mixed queries and attributes no field declares.
///
/// Field constants need an entity that decodes whatever is left out ([`PartialRead`]);
/// an entity with required fields is read in part through a projection type
/// ([`EntityProjection`](super::EntityProjection)). Attribute names are not checked: an
/// item read without an attribute a required field is stored in fails to decode, naming
/// the attribute.
///
/// Field constants of another entity do not compile:
///
/// ```compile_fail
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)] #[dynamap(pk = "PK", sk = "SK")] struct App;
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Sensor", pk = "S#{id}", sk = "S")]
/// # struct Sensor { id: String, city: Option<String> }
/// # #[derive(Entity)] #[dynamap(table = App, entity = "Reading", pk = "S#{id}", sk = "R#{at}")]
/// # struct Reading { id: String, at: i64 }
/// # fn example(db: &dynamap::Db<App>) {
/// let _ = db.query(Sensor::partition("S1")).project((Sensor::CITY, Reading::AT));
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of attributes of `{T}` to read",
    label = "expected field constants of `{T}` (`{T}::FIELD`, or a tuple of them) or attribute names"
)]
pub trait Projected<T>: Sealed<(ProjectedSeal, T)> {
    /// Appends the attribute names, in order.
    fn attribute_names(&self, out: &mut Vec<&'static str>);
}

impl<T: PartialRead, V> Sealed<(ProjectedSeal, T)> for Attr<T, V> {}
impl<T, const N: usize> Sealed<(ProjectedSeal, T)> for [&'static str; N] {}
impl<T> Sealed<(ProjectedSeal, T)> for &[&'static str] {}
impl<T> Sealed<(ProjectedSeal, T)> for Vec<&'static str> {}

// Only for entities that decode with any field left out: the constants say which
// attributes to read, not which fields the item will lack.
impl<T: PartialRead, V> Projected<T> for Attr<T, V> {
    fn attribute_names(&self, out: &mut Vec<&'static str>) {
        out.push(self.name());
    }
}

impl<T, const N: usize> Projected<T> for [&'static str; N] {
    fn attribute_names(&self, out: &mut Vec<&'static str>) {
        out.extend_from_slice(self);
    }
}

impl<T> Projected<T> for &[&'static str] {
    fn attribute_names(&self, out: &mut Vec<&'static str>) {
        out.extend_from_slice(self);
    }
}

impl<T> Projected<T> for Vec<&'static str> {
    fn attribute_names(&self, out: &mut Vec<&'static str>) {
        out.extend_from_slice(self);
    }
}

macro_rules! projected_tuple {
    ($($A:ident),+) => {
        impl<T, $($A: Projected<T>),+> Sealed<(ProjectedSeal, T)> for ($($A,)+) {}

        impl<T, $($A: Projected<T>),+> Projected<T> for ($($A,)+) {
            #[allow(non_snake_case)] // bindings named after their type parameters
            fn attribute_names(&self, out: &mut Vec<&'static str>) {
                let ($($A,)+) = self;
                $($A.attribute_names(out);)+
            }
        }
    };
}

projected_tuple!(A0);
projected_tuple!(A0, A1);
projected_tuple!(A0, A1, A2);
projected_tuple!(A0, A1, A2, A3);
projected_tuple!(A0, A1, A2, A3, A4);
projected_tuple!(A0, A1, A2, A3, A4, A5);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6, A7);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6, A7, A8);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10);
projected_tuple!(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11);
