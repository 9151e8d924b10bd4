//! Pictures of solids: every solid board is drawn as a solid whose drawn
//! faces meet exactly where the board's faces do (the drawing's shape is
//! made from the face graph alone, so this checks it), in its canonical
//! form, and the picture rasterises (resvg) to two views that each show
//! the solid. `GAMECERT_PICTURES=DIR` keeps the pictures for looking at.

use gamecert::elaborate::{BUILTIN_BOARDS, builtin_board};
use gamecert::kernel::animals::Board;
use gamecert::kernel::animals::solid::{FaceGraph, Solid};
use gamecert::render::solid3d::{Marks, Shape, svg};

/// Every solid the language names without arguments, and the prisms and
/// antiprisms of up to 10 sides.
fn solids() -> Vec<(String, Solid)> {
    let named = BUILTIN_BOARDS
        .iter()
        .filter_map(|&name| match builtin_board(name) {
            Some(Board::Solid(solid)) => Some((name.to_string(), solid)),
            _ => None,
        });
    let sided = (3..=10).flat_map(|n| {
        [
            (format!("prism-{n}"), Solid::Prism(n)),
            (format!("antiprism-{n}"), Solid::Antiprism(n)),
        ]
    });
    named.chain(sided).collect()
}

/// The picture rasterised: the share of each half (front view, back view)
/// that is not white.
fn inked(picture: &str) -> (f64, f64) {
    let tree = resvg::usvg::Tree::from_str(picture, &resvg::usvg::Options::default())
        .expect("a well-formed SVG");
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a picture size");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let (w, h) = (size.width() as usize, size.height() as usize);
    let mut dark = [0usize; 2];
    for (i, px) in pixmap.pixels().iter().enumerate() {
        let half = usize::from(i % w >= w / 2);
        dark[half] += usize::from(px.red() < 250 || px.green() < 250 || px.blue() < 250);
    }
    let area = (w / 2 * h) as f64;
    (dark[0] as f64 / area, dark[1] as f64 / area)
}

#[test]
fn every_solid_is_drawn_with_the_boards_faces_meeting() {
    let dir = std::env::var_os("GAMECERT_PICTURES").map(std::path::PathBuf::from);
    let mut wrong = Vec::new();
    let solids = solids();
    // 5 platonic, 13 archimedean, 8 prisms and 8 antiprisms.
    assert_eq!(solids.len(), 34);
    for (name, solid) in solids {
        let graph = FaceGraph::of(solid).expect("buildable");
        let shape = Shape::of(&graph.adjacent);
        if shape.adjacency() != graph.adjacent {
            wrong.push(format!("{name} (faces meet differently)"));
        }
        // Flat faces, convex, every edge touching the unit sphere: the
        // canonical form of the solid (within 2% on the tetrahedron, which
        // the canonicalisation only nears), not a flattened or dented one.
        let (flat, canonical) = (shape.flatness(), shape.off_canonical());
        if !(shape.convex() && flat < 1e-4 && canonical < 2e-2) {
            wrong.push(format!(
                "{name} (flatness {flat:.2e}, off canonical {canonical:.2e})"
            ));
        }
        let picture = svg(&name, &shape, &Marks::default());
        let (front, back) = inked(&picture);
        if front < 0.2 || back < 0.2 {
            wrong.push(format!("{name} (inked {front:.2} front, {back:.2} back)"));
        }
        if let Some(dir) = &dir {
            std::fs::write(dir.join(format!("{name}.svg")), picture).expect("writable");
        }
    }
    assert!(wrong.is_empty(), "drawn wrongly: {wrong:?}");
}
