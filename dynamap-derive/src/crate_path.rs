//! `#[dynamap(crate = "path")]`: where generated code finds dynamap, for a crate that uses
//! it through a re-export (`my_platform::dynamap`) rather than as a dependency of its own.
//!
//! Generated code names dynamap only as `::dynamap::…` (see `expand`), so the path is
//! applied once to the finished output instead of being threaded through every `quote!`.

use proc_macro2::{Delimiter, Group, Spacing, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Attribute, LitStr, Path};

/// The container's `crate = "..."`, if given. With `only_crate`, for derives that take no
/// other container attribute, any other key inside `#[dynamap(...)]` is an error; otherwise
/// the derive's own parser reads (and checks) the other keys.
pub(crate) fn crate_path(attrs: &[Attribute], only_crate: bool) -> syn::Result<Option<Path>> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynamap")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("crate") {
                let text: LitStr = meta.value()?.parse()?;
                let path: Path = text.parse().map_err(|_| {
                    syn::Error::new(
                        text.span(),
                        format!(
                            "`crate = \"{}\"` is not a path; give the path dynamap is reached by, such as `crate = \"my_platform::dynamap\"`",
                            text.value()
                        ),
                    )
                })?;
                if found.replace(path).is_some() {
                    return Err(meta.error("`crate` is given twice"));
                }
                Ok(())
            } else if only_crate {
                Err(meta.error("unknown dynamap attribute; this derive takes only `crate = \"...\"`"))
            } else {
                // The derive's own parser reads it; skip its value here.
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::Expr>()?;
                } else if meta.input.peek(syn::token::Paren) {
                    meta.input.parse::<Group>()?;
                }
                Ok(())
            }
        })?;
    }
    Ok(found)
}

/// `tokens` with every leading `::dynamap` replaced by `path`.
pub(crate) fn rebase(tokens: TokenStream, path: &Path) -> TokenStream {
    let replacement: Vec<TokenTree> = path.to_token_stream().into_iter().collect();
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if is_leading_dynamap(&trees, i) {
            out.extend(replacement.iter().cloned());
            i += 3;
            continue;
        }
        match &trees[i] {
            TokenTree::Group(group) => {
                let mut inner = Group::new(group.delimiter(), rebase(group.stream(), path));
                inner.set_span(group.span());
                out.push(TokenTree::Group(inner));
            }
            other => out.push(other.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// True at the `::` of `::dynamap` when the token before does not continue a path: it is
/// not a name (`x::dynamap`), only punctuation (`-> ::dynamap`, `x: ::dynamap`) or a keyword
/// (`impl ::dynamap`, `as ::dynamap`).
fn is_leading_dynamap(trees: &[TokenTree], i: usize) -> bool {
    let colon = |tree: Option<&TokenTree>, spacing: Spacing| matches!(tree, Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == spacing);
    let continues_path = i > 0
        && match &trees[i - 1] {
            TokenTree::Ident(ident) => !KEYWORDS.contains(&ident.to_string().as_str()),
            TokenTree::Group(g) => g.delimiter() == Delimiter::None,
            TokenTree::Punct(_) | TokenTree::Literal(_) => false,
        };
    !continues_path
        && colon(trees.get(i), Spacing::Joint)
        && colon(trees.get(i + 1), Spacing::Alone)
        && matches!(trees.get(i + 2), Some(TokenTree::Ident(id)) if id == "dynamap")
}

/// Keywords a path can follow (`crate`, `self`, `super` and `Self` start paths instead).
const KEYWORDS: &[&str] = &[
    "as", "async", "const", "dyn", "else", "fn", "for", "if", "impl", "in", "let", "match", "move",
    "mut", "pub", "ref", "return", "static", "type", "unsafe", "use", "where", "while",
];

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;

    #[test]
    fn rebases_leading_paths_only() {
        let path: Path = syn::parse_str("my_platform::dynamap").expect("path");
        let tokens = quote! {
            impl ::dynamap::__private::Entity for X {
                fn f(x: ::dynamap::X) -> Vec<::dynamap::Key<Self>> { other::dynamap::g(<T as ::dynamap::T>::C) }
                fn g() -> ::dynamap::Y {}
            }
        };
        let out = rebase(tokens, &path).to_string();
        assert_eq!(
            out,
            quote! {
                impl my_platform::dynamap::__private::Entity for X {
                    fn f(x: my_platform::dynamap::X) -> Vec<my_platform::dynamap::Key<Self>> { other::dynamap::g(<T as my_platform::dynamap::T>::C) }
                    fn g() -> my_platform::dynamap::Y {}
                }
            }
            .to_string()
        );
    }

    #[test]
    fn reads_the_crate_key_among_others() {
        let input: syn::DeriveInput = syn::parse_quote! {
            #[dynamap(table = App, crate = "::platform::dynamap", index(name = "GSI1", pk = "X"))]
            struct S;
        };
        let path = crate_path(&input.attrs, false)
            .expect("parses")
            .expect("given");
        assert_eq!(path.to_token_stream().to_string(), ":: platform :: dynamap");
        assert!(
            crate_path(&input.attrs, true).is_err(),
            "only `crate` is allowed"
        );
    }
}
