//! [`check_encryption!`](crate::check_encryption): the one-action-per-attribute rule of a
//! table, checked while compiling, from the entities' `WRITE` constants.

use dynamap::__private::{WriteMeta, str_eq};

const fn contains(list: &[&str], name: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        if str_eq(list[i], name) {
            return true;
        }
        i += 1;
    }
    false
}

/// 0 plain, 1 signed only, 2 encrypted.
const fn action(meta: &WriteMeta, attribute: &str) -> u8 {
    if contains(meta.encrypted_attributes, attribute) {
        2
    } else if contains(meta.sign_only_attributes, attribute) {
        1
    } else {
        0
    }
}

/// Panics (a compile error in a `const`) when two entities store one attribute with
/// different actions. Used by [`check_encryption!`](crate::check_encryption).
#[doc(hidden)]
pub const fn check(metas: &[WriteMeta]) {
    let mut i = 0;
    while i < metas.len() {
        let mut j = i + 1;
        while j < metas.len() {
            let stored = metas[i].stored_attributes;
            let mut k = 0;
            while k < stored.len() {
                let name = stored[k];
                if contains(metas[j].stored_attributes, name)
                    && action(&metas[i], name) != action(&metas[j], name)
                {
                    panic!(
                        "two entities of this table store one attribute with different encryption actions (`encrypt`, `sign_only` or neither): the SDK configures attributes per table; `TableEncryption::attribute_actions` names them"
                    );
                }
                k += 1;
            }
            j += 1;
        }
        i += 1;
    }
}

/// Checks while compiling that the entities stored in one table give every attribute one
/// encryption action, and that each belongs to the table: two entities storing `email`,
/// one `#[dynamap(encrypt)]` and one plain, fail the build.
///
/// ```
/// use dynamap::{Entity, Table};
///
/// #[derive(Table)]
/// #[dynamap(pk = "PK", sk = "SK")]
/// struct App;
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER")]
/// struct User { id: String, #[dynamap(encrypt)] email: String }
///
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Invite", pk = "INVITE#{id}", sk = "INVITE")]
/// struct Invite { id: String, #[dynamap(encrypt)] email: String }
///
/// dynamap_encryption::check_encryption!(App: User, Invite);
/// ```
///
/// ```compile_fail
/// # use dynamap::{Entity, Table};
/// # #[derive(Table)]
/// # #[dynamap(pk = "PK", sk = "SK")]
/// # struct App;
/// # #[derive(Entity)]
/// # #[dynamap(table = App, entity = "User", pk = "USER#{id}", sk = "USER")]
/// # struct User { id: String, #[dynamap(encrypt)] email: String }
/// #[derive(Entity)]
/// #[dynamap(table = App, entity = "Newsletter", pk = "NEWS#{id}", sk = "NEWS")]
/// struct Newsletter { id: String, email: String } // stored in the clear
///
/// dynamap_encryption::check_encryption!(App: User, Newsletter); // error
/// ```
#[macro_export]
macro_rules! check_encryption {
    ($table:ty : $($entity:ty),+ $(,)?) => {
        const _: () = {
            fn __of_table<
                E: $crate::__dynamap::Entity<Table = T>,
                T: $crate::__dynamap::Table,
            >() {
            }
            fn __all_of_table() {
                $(__of_table::<$entity, $table>();)+
            }
            $crate::__check(&[$(<$entity as $crate::__dynamap::__private::EntityGlue>::WRITE),+]);
        };
    };
}
