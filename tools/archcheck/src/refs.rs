//! What one module's items name: its `use` imports, the paths written anywhere in its code
//! (types, expressions, patterns, macro input), and the modules it declares.
//!
//! Nothing here knows the module tree: a path is kept as its segments, to be resolved later.
//! Code under `#[cfg(test)]` is skipped.

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, ImplItem, Item, ItemMod, ItemUse, Meta, TraitItem, UseTree};

/// One name brought in by a `use` item, such as `use crate::a::{b::C as D, e::*}`.
#[derive(Debug, Clone)]
pub struct UseEntry {
    /// The path imported, without a trailing `*` or `self`: `["crate", "a", "b", "C"]`.
    pub segments: Vec<String>,
    /// The name it binds (`D`), or `None` for a glob or an `as _` import.
    pub binds: Option<String>,
    /// `use ...::*`.
    pub glob: bool,
    pub line: usize,
}

/// A path of two segments or more written in code, such as `super::store::Store::new`.
#[derive(Debug, Clone)]
pub struct PathRef {
    pub segments: Vec<String>,
    pub line: usize,
}

/// A `mod` item: `mod x;` (its file is found later) or `mod x { ... }`.
pub struct ModDecl<'a> {
    pub name: String,
    /// The value of a `#[path = "..."]` attribute.
    pub path_attr: Option<String>,
    /// The items of an inline module.
    pub content: Option<&'a [Item]>,
}

/// Everything one module's own items name (inline submodules are listed, not entered).
#[derive(Default)]
pub struct Scan<'a> {
    pub uses: Vec<UseEntry>,
    pub paths: Vec<PathRef>,
    pub mods: Vec<ModDecl<'a>>,
}

/// Scans the items of one module.
pub fn scan(items: &[Item]) -> Scan<'_> {
    let mut collector = Collector::default();
    let mut mods = Vec::new();
    for item in items {
        if is_test_only(item_attrs(item)) {
            continue;
        }
        match item {
            Item::Mod(m) => mods.push(mod_decl(m)),
            other => collector.visit_item(other),
        }
    }
    Scan { uses: collector.uses, paths: collector.paths, mods }
}

fn mod_decl(m: &ItemMod) -> ModDecl<'_> {
    let path_attr = m.attrs.iter().find_map(|attr| match &attr.meta {
        Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    });
    ModDecl { name: unraw(&m.ident), path_attr, content: m.content.as_ref().map(|(_, items)| items.as_slice()) }
}

/// Whether these attributes compile the item only for tests: `#[cfg(test)]`, or an
/// `all(...)` that includes `test`.
pub fn is_test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match &attr.meta {
        Meta::List(list) if list.path.is_ident("cfg") => list.parse_args::<Meta>().is_ok_and(|m| requires_test(&m)),
        _ => false,
    })
}

fn requires_test(meta: &Meta) -> bool {
    match meta {
        Meta::Path(p) => p.is_ident("test"),
        Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_terminated)
            .is_ok_and(|metas| metas.iter().any(requires_test)),
        _ => false,
    }
}

/// The attributes of an item (none for items syn keeps as raw tokens).
pub fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

fn impl_item_attrs(item: &ImplItem) -> &[Attribute] {
    match item {
        ImplItem::Const(i) => &i.attrs,
        ImplItem::Fn(i) => &i.attrs,
        ImplItem::Type(i) => &i.attrs,
        ImplItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

fn trait_item_attrs(item: &TraitItem) -> &[Attribute] {
    match item {
        TraitItem::Const(i) => &i.attrs,
        TraitItem::Fn(i) => &i.attrs,
        TraitItem::Type(i) => &i.attrs,
        TraitItem::Macro(i) => &i.attrs,
        _ => &[],
    }
}

/// An identifier as written, without `r#`.
fn unraw(ident: &proc_macro2::Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

fn line_of(span: proc_macro2::Span) -> usize {
    span.start().line
}

#[derive(Default)]
struct Collector {
    uses: Vec<UseEntry>,
    paths: Vec<PathRef>,
}

impl Collector {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &UseTree) {
        match tree {
            UseTree::Path(p) => {
                prefix.push(unraw(&p.ident));
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            UseTree::Name(n) => {
                let (segments, binds) = with_leaf(prefix, &n.ident);
                self.uses.push(UseEntry { segments, binds: Some(binds), glob: false, line: line_of(n.ident.span()) });
            }
            UseTree::Rename(r) => {
                let (segments, _) = with_leaf(prefix, &r.ident);
                let alias = unraw(&r.rename);
                let binds = (alias != "_").then_some(alias);
                self.uses.push(UseEntry { segments, binds, glob: false, line: line_of(r.ident.span()) });
            }
            UseTree::Glob(g) => self.uses.push(UseEntry {
                segments: prefix.clone(),
                binds: None,
                glob: true,
                line: line_of(g.star_token.span),
            }),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// Paths in a macro's input: any `a::b...` run of identifiers joined by `::`, in any
    /// group, that does not itself follow a `::` (`$crate` counts as `crate`).
    fn tokens(&mut self, stream: TokenStream) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            if let TokenTree::Group(g) = &tokens[i] {
                self.tokens(g.stream());
                i += 1;
                continue;
            }
            let after_colons = i >= 2 && is_path_sep(&tokens[i - 2], &tokens[i - 1]);
            let dollar = i >= 1 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
            let TokenTree::Ident(first) = &tokens[i] else {
                i += 1;
                continue;
            };
            if after_colons || (dollar && first != "crate") {
                i += 1;
                continue;
            }
            let mut segments = vec![unraw(first)];
            let mut j = i + 1;
            while j + 1 < tokens.len() && is_path_sep(&tokens[j], &tokens[j + 1]) {
                match tokens.get(j + 2) {
                    Some(TokenTree::Ident(next)) => {
                        segments.push(unraw(next));
                        j += 3;
                    }
                    _ => break,
                }
            }
            if segments.len() >= 2 {
                self.paths.push(PathRef { segments, line: line_of(first.span()) });
            }
            i = j.max(i + 1);
        }
    }
}

fn with_leaf(prefix: &[String], leaf: &proc_macro2::Ident) -> (Vec<String>, String) {
    let leaf = unraw(leaf);
    if leaf == "self" {
        // `use a::b::{self}` imports `a::b` under the name `b`.
        let binds = prefix.last().cloned().unwrap_or_default();
        (prefix.to_vec(), binds)
    } else {
        let mut segments = prefix.to_vec();
        segments.push(leaf.clone());
        (segments, leaf)
    }
}

fn is_path_sep(a: &TokenTree, b: &TokenTree) -> bool {
    matches!((a, b), (TokenTree::Punct(x), TokenTree::Punct(y))
        if x.as_char() == ':' && x.spacing() == Spacing::Joint && y.as_char() == ':')
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item(&mut self, item: &'ast Item) {
        if !is_test_only(item_attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast ImplItem) {
        if !is_test_only(impl_item_attrs(item)) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast TraitItem) {
        if !is_test_only(trait_item_attrs(item)) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if !is_test_only(&local.attrs) {
            visit::visit_local(self, local);
        }
    }

    fn visit_stmt_macro(&mut self, mac: &'ast syn::StmtMacro) {
        if !is_test_only(&mac.attrs) {
            visit::visit_stmt_macro(self, mac);
        }
    }

    fn visit_field(&mut self, field: &'ast syn::Field) {
        if !is_test_only(&field.attrs) {
            visit::visit_field(self, field);
        }
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        if !is_test_only(&variant.attrs) {
            visit::visit_variant(self, variant);
        }
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !is_test_only(&arm.attrs) {
            visit::visit_arm(self, arm);
        }
    }

    fn visit_item_use(&mut self, item: &'ast ItemUse) {
        // `use ::x` names an outside crate.
        if item.leading_colon.is_none() {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() && path.segments.len() >= 2 {
            let segments = path.segments.iter().map(|s| unraw(&s.ident)).collect();
            let line = path.segments.first().map_or(0, |s| line_of(s.ident.span()));
            self.paths.push(PathRef { segments, line });
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        visit::visit_macro(self, mac);
        self.tokens(mac.tokens.clone());
    }

    /// `pub(in crate::a)` says who may see an item, not what it uses.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}
}
