//! Not read yet: placeholder until this language's walker lands.

use tree_sitter::Tree;

use super::scope::Cx;
use super::tree::Source;

pub(super) fn read(_cx: &mut Cx, _tree: &Tree, _src: &Source<'_>) {}
