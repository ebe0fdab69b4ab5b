//! The method names the derive makes from index and lookup names.

/// `Entity::<index>(...)`: the index name in snake case (`GSI1` → `gsi1`, `ByCity` →
/// `by_city`, `by-city` → `by_city`, `2nd` → `_2nd`).
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 1);
    let mut previous_lower = false;
    for ch in name.chars() {
        if ch.is_ascii_uppercase() && previous_lower {
            out.push('_');
        }
        previous_lower = ch.is_ascii_lowercase();
        out.push(if ch.is_ascii_alphanumeric() {
            ch.to_ascii_lowercase()
        } else {
            '_'
        });
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// A snake-case name in upper camel case, for generated type names (`by_date` → `ByDate`,
/// `gsi1` → `Gsi1`, `_2nd` → `2nd`).
pub(crate) fn upper_camel_case(snake: &str) -> String {
    snake
        .split('_')
        .flat_map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

/// `Entity::by_<lookup>(...)`: the lookup's query builder (`location` → `by_location`).
pub(crate) fn lookup_method(lookup: &str) -> String {
    format!("by_{}", snake_case(lookup).trim_start_matches('_'))
}

#[cfg(test)]
mod tests {
    use super::{lookup_method, snake_case, upper_camel_case};

    #[test]
    fn index_names_become_method_names() {
        assert_eq!(snake_case("GSI1"), "gsi1");
        assert_eq!(snake_case("byCity"), "by_city");
        assert_eq!(snake_case("by-city"), "by_city");
        assert_eq!(snake_case("2nd"), "_2nd");
        assert_eq!(snake_case("LocationIndex"), "location_index");
        assert_eq!(snake_case("índiceA"), "_ndice_a");
    }

    #[test]
    fn snake_case_names_become_type_names() {
        assert_eq!(upper_camel_case("by_date"), "ByDate");
        assert_eq!(upper_camel_case("gsi1"), "Gsi1");
        assert_eq!(
            upper_camel_case(&snake_case("IssuesByStatus")),
            "IssuesByStatus"
        );
        assert_eq!(upper_camel_case("_2nd"), "2nd");
    }

    #[test]
    fn lookup_names_become_by_methods() {
        assert_eq!(lookup_method("location"), "by_location");
        assert_eq!(lookup_method("eMail"), "by_e_mail");
        assert_eq!(lookup_method("2nd"), "by_2nd");
    }
}
