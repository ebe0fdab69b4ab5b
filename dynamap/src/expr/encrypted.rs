//! The field constant of an `#[dynamap(encrypt)]` field.

use std::fmt;
use std::marker::PhantomData;

/// The field constant of an `#[dynamap(encrypt)]` field (`User::EMAIL`). DynamoDB stores
/// only the field's ciphertext, so nothing it evaluates can read the value: a condition, a
/// filter, a projection, a sort or an update expression on it could never be right. The
/// methods [`Attr`](super::Attr) offers for those exist here only to fail to compile with
/// a message saying so.
///
/// ```compile_fail
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
/// let _ = User::EMAIL.eq("a@example.com"); // error: `email` is encrypted
/// ```
pub struct EncryptedAttr<E, T> {
    name: &'static str,
    marker: PhantomData<fn() -> (E, T)>,
}

impl<E, T> EncryptedAttr<E, T> {
    /// The encrypted attribute called `name`. Used by generated code.
    #[doc(hidden)]
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            marker: PhantomData,
        }
    }

    /// The attribute's name.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<E, T> Clone for EncryptedAttr<E, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E, T> Copy for EncryptedAttr<E, T> {}

impl<E, T> fmt::Debug for EncryptedAttr<E, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EncryptedAttr({})", self.name)
    }
}

/// Implemented by no type: what an expression on an encrypted field would need.
#[diagnostic::on_unimplemented(
    message = "this field is encrypted (`#[dynamap(encrypt)]`): DynamoDB sees only ciphertext, so it cannot be used in a condition, filter, projection, sort or update expression",
    label = "encrypted field",
    note = "read the item and compare in Rust, write the whole item with `Db::put`, or mark the field `sign_only` if it need not be secret"
)]
pub trait ReadableByDynamoDb {
    /// Never called: no type implements this trait.
    fn unreachable(&self) -> std::convert::Infallible;
}

/// The [`Attr`](super::Attr) methods an encrypted field refuses. Each compiles only if
/// [`ReadableByDynamoDb`] were implemented, which it never is.
macro_rules! refused {
    ($($method:ident($($arg:ident),*)),* $(,)?) => {
        impl<E, T> EncryptedAttr<E, T> {
            $(
                #[doc = concat!("Refused at compile time, unlike `Attr::", stringify!($method), "`: see [`EncryptedAttr`].")]
                #[allow(clippy::should_implement_trait, reason = "mirrors `Attr`'s method names so that the refusal names them")]
                pub fn $method(&self, $($arg: impl Sized),*) -> std::convert::Infallible
                where
                    Self: ReadableByDynamoDb,
                {
                    $(let _ = $arg;)*
                    ReadableByDynamoDb::unreachable(self)
                }
            )*
        }
    };
}

refused!(
    eq(value),
    ne(value),
    lt(value),
    le(value),
    gt(value),
    ge(value),
    between(low, high),
    begins_with(prefix),
    contains(value),
    is_in(values),
    exists(),
    not_exists(),
    attribute_type(kind),
    size(),
    set(value),
    set_if_missing(value),
    remove(),
    add(value),
    delete(value),
    path(path),
);

// An update's `set(User::EMAIL, ..)` takes a `Target`: implemented only under the bound no
// type meets, so the refusal carries `ReadableByDynamoDb`'s message, not a list of the
// types that are targets.
impl<E, T> crate::sealed::Sealed<(crate::sealed::TargetSeal, E, T)> for EncryptedAttr<E, T> {}

impl<E, T> super::Target<E, T> for EncryptedAttr<E, T>
where
    Self: ReadableByDynamoDb,
{
    #[allow(
        unreachable_code,
        reason = "the bound never holds, so no path is ever made; `Infallible` says so"
    )]
    fn into_path(self) -> super::Path<E, T> {
        match ReadableByDynamoDb::unreachable(&self) {}
    }
}
