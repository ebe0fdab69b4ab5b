//! How key parts are written: dynamap's own escaped, order-preserving form, or the forms
//! other mappers write, for tables shared with services that use them.

/// How the parts of a key are written into its text: a table's choice
/// (`#[dynamap(key_format(...))]` on the `Table`), which an entity or a field may override
/// with the same attribute.
///
/// The default, [`KeyFormat::ESCAPED`], is dynamap's own form: characters up to `%` escaped
/// (so no value can forge a key), case kept, numbers fixed-width (so text order is number
/// order). The other choices match what other mappers store, ElectroDB's or DynamoDB
/// Toolbox's for example:
///
/// - [`verbatim`](KeyFormat::verbatim): values written as they are. A value holding the
///   delimiter `#` cannot be written unambiguously, so it is refused (a
///   [`KeyPartError::NotVerbatim`](crate::key::KeyPartError::NotVerbatim), before anything is
///   sent) rather than escaped.
/// - [`lowercase`](KeyFormat::lowercase): string parts (and string newtypes) written in
///   lower case; they read back lower-cased.
/// - [`numbers`](KeyFormat::numbers): integers [`Numbers::Plain`] (`4`, `-12`) or
///   [`Numbers::Padded`] to a width with a pad character (`0004`), instead of
///   [`Numbers::Ordered`].
///
/// What each does to order, the forgery guarantee and the look-alike keys is in
/// `docs/design/keys.md` ("Key formats").
///
/// # Examples
///
/// ```
/// use dynamap::{Entity, Table};
/// use dynamap::key::{KeyFormat, Numbers};
///
/// #[derive(Table)]
/// #[dynamap(pk = "pk", sk = "sk", key_format(verbatim, lowercase, numbers = "plain"))]
/// struct Shared;
///
/// #[derive(Entity)]
/// #[dynamap(table = Shared, entity = "employee", pk = "$org#employee_{name}", sk = "$employee#level_{level}")]
/// struct Employee { name: String, level: u32 }
///
/// assert_eq!(
///     Shared::KEY_FORMAT,
///     KeyFormat::verbatim().lowercase().numbers(Numbers::Plain)
/// );
/// let key = Employee::key("Mary Ann", 4u32).into_values()?;
/// assert_eq!(key.0, "$org#employee_mary ann");
/// assert_eq!(key.1.as_deref(), Some("$employee#level_4"));
/// // A value holding the delimiter is refused, not escaped.
/// assert!(Employee::key("ops#1", 1u32).values().is_err());
/// # Ok::<(), dynamap::KeyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyFormat {
    verbatim: bool,
    lowercase: bool,
    numbers: Numbers,
}

/// How integer key parts are written (see [`KeyFormat::numbers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Numbers {
    /// dynamap's form: zero-padded to the type's widest value, negative numbers as `-` and
    /// their distance from the type's minimum, so text order is number order for every
    /// value (`u32` 4 is `0000000004`, `i32` -1 is `-2147483647`).
    Ordered,
    /// Decimal text as `Display` writes it (`4`, `-12`): text order is not number order
    /// (`10` sorts before `9`).
    Plain,
    /// Decimal text left-padded with `pad` to `width` characters (`0004`), a negative
    /// number's `-` first: numbers from 0 to below `10^width` sort as numbers; longer ones
    /// and negative ones do not.
    Padded {
        /// The least number of characters of the digits.
        width: u8,
        /// The character added before the digits.
        pad: char,
    },
}

impl Default for KeyFormat {
    fn default() -> Self {
        Self::ESCAPED
    }
}

impl KeyFormat {
    /// dynamap's own form, the default: escaped, case kept, numbers ordered.
    pub const ESCAPED: Self = Self {
        verbatim: false,
        lowercase: false,
        numbers: Numbers::Ordered,
    };

    /// dynamap's own form ([`ESCAPED`](Self::ESCAPED)).
    #[must_use]
    pub const fn escaped() -> Self {
        Self::ESCAPED
    }

    /// Values written as they are; a value holding `#` is refused.
    #[must_use]
    pub const fn verbatim() -> Self {
        Self {
            verbatim: true,
            ..Self::ESCAPED
        }
    }

    /// This format, with values escaped (`true`, dynamap's form) or verbatim (`false`).
    #[must_use]
    pub const fn with_escaping(self, escaped: bool) -> Self {
        Self {
            verbatim: !escaped,
            ..self
        }
    }

    /// This format, with string parts written in lower case.
    #[must_use]
    pub const fn lowercase(self) -> Self {
        self.with_lowercase(true)
    }

    /// This format, with string parts lower-cased (`true`) or kept as given (`false`).
    #[must_use]
    pub const fn with_lowercase(self, lowercase: bool) -> Self {
        Self { lowercase, ..self }
    }

    /// This format, with integers written as `numbers` says.
    #[must_use]
    pub const fn numbers(self, numbers: Numbers) -> Self {
        Self { numbers, ..self }
    }

    /// True when values are written as they are, not escaped.
    #[must_use]
    pub const fn is_verbatim(&self) -> bool {
        self.verbatim
    }

    /// True when string parts are lower-cased.
    #[must_use]
    pub const fn is_lowercase(&self) -> bool {
        self.lowercase
    }

    /// How integers are written.
    #[must_use]
    pub const fn number_format(&self) -> Numbers {
        self.numbers
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders_set_one_choice_each_and_keep_the_others() {
        let format = KeyFormat::verbatim().lowercase().numbers(Numbers::Plain);
        assert!(format.is_verbatim() && format.is_lowercase());
        assert_eq!(format.number_format(), Numbers::Plain);
        let back = format.with_escaping(true).with_lowercase(false);
        assert_eq!(back, KeyFormat::ESCAPED.numbers(Numbers::Plain));
        assert_eq!(KeyFormat::default(), KeyFormat::escaped());
    }
}
