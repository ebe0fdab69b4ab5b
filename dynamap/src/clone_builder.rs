//! `Clone` for request builders.

/// Implements `Clone` for a request builder by cloning each field, without the `Clone`
/// bound `#[derive(Clone)]` would put on its type parameters: they name the entity or the
/// table, and the builder holds them only as markers, keys and conditions.
macro_rules! clone_builder {
    ($name:ident $(<$($param:ident),+>)? { $($field:ident),+ $(,)? }) => {
        impl$(<$($param),+>)? Clone for $name$(<$($param),+>)? {
            fn clone(&self) -> Self {
                Self {
                    $($field: self.$field.clone()),+
                }
            }
        }
    };
}

pub(crate) use clone_builder;
