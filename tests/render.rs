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

/// The claims of a shipped certificate, elaborated.
fn claims_of(path: &str) -> Vec<gamecert::elaborate::ElaboratedClaim> {
    let text = std::fs::read_to_string(path).expect("a shipped certificate");
    gamecert::elaborate::claims(&gamecert::syntax::parse_file(&text))
}

#[test]
fn pavings_on_the_plane_lattices_link_every_pair() {
    use gamecert::elaborate::Explicit;
    use gamecert::kernel::breaker::Strategy;
    let mut drawn = 0;
    for path in [
        "certificates/norris-sieben-2014/square.cert",
        "certificates/norris-sieben-2014/triangle.cert",
    ] {
        for claim in claims_of(path) {
            let Ok(Explicit::Breaker(game, Strategy::Paving(paving))) = &claim.explicit else {
                continue;
            };
            let picture =
                gamecert::render::paving_svg(&claim.id, &game.board, &paving.pairs, &paving.period)
                    .expect("a plane lattice");
            // Each class of pairs shows at least once in the window, and
            // the window's cells are all drawn.
            let links = picture.matches("<line").count();
            assert!(links >= paving.pairs.len(), "{}: {links} links", claim.id);
            assert_eq!(picture.matches("<polygon").count(), 144, "{}", claim.id);
            let (left, right) = inked(&picture);
            assert!(left > 0.3 && right > 0.3, "{}", claim.id);
            drawn += 1;
        }
    }
    assert!(drawn >= 5, "{drawn} pavings drawn");
}

/// Every situation of every proof sequence in a shipped certificate, with
/// its picture.
fn situation_pictures(path: &str) -> Vec<(gamecert::kernel::maker::Situation, String)> {
    use gamecert::elaborate::Explicit;
    let mut out = Vec::new();
    for claim in claims_of(path) {
        let Ok(Explicit::Maker(game, proof)) = &claim.explicit else {
            continue;
        };
        for (situation, _) in &proof.situations {
            let picture = gamecert::render::situation_svg(
                &situation.name,
                &game.board,
                &situation.core,
                &situation.neighbourhood,
            )
            .expect("a board that is drawn");
            out.push((situation.clone(), picture));
        }
    }
    out
}

#[test]
fn situations_show_their_core_and_free_cells() {
    let on_the_plane = situation_pictures("certificates/norris-sieben-2014/square.cert");
    assert!(
        on_the_plane.len() >= 10,
        "{} situations drawn",
        on_the_plane.len()
    );
    for (situation, picture) in &on_the_plane {
        let open = situation
            .neighbourhood
            .iter()
            .filter(|c| !situation.core.contains(c))
            .count();
        assert_eq!(picture.matches("#4a7ebb").count(), situation.core.len());
        assert_eq!(picture.matches("#f4d678").count(), open);
    }
    // On a solid: the core's faces are filled where they face the viewer,
    // and each face faces it in one of the two views.
    for (situation, picture) in situation_pictures("certificates/bode-2000/snub-dodecahedron.cert")
    {
        assert!(picture.contains("class=\"filled\""), "{}", situation.name);
        let (front, back) = inked(&picture);
        assert!(front > 0.2 && back > 0.2);
    }
}

/// A mosaic board is drawn as a disc of its triangles: one path per
/// triangle, the root filled, and the picture rasterises with ink in both
/// halves.
#[test]
fn mosaics_are_drawn_as_discs_of_triangles() {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::mosaic::Mosaic;
    for q in [6, 7, 11] {
        let board = Board::Mosaic(Mosaic::new(q).expect("q in range"));
        let svg = gamecert::render::board_svg("H", &board).expect("a picture");
        let triangles = svg.matches("<path").count();
        assert!(triangles > 100, "q = {q}: {triangles} triangles");
        assert_eq!(svg.matches("fill=\"#4a7ebb\"").count(), 1, "q = {q}");
        let (left, right) = inked(&svg);
        assert!(left > 0.3 && right > 0.3, "q = {q}: {left} {right}");
    }
}

/// Cells on a mosaic are drawn on the board's disc: an animal (a core
/// alone) with its triangles filled and the root no longer marked, a
/// situation with its core filled and its neighbourhood tinted.
#[test]
fn mosaic_animals_and_situations_are_drawn_on_the_disc() {
    use gamecert::kernel::animals::Board;
    use gamecert::kernel::animals::mosaic::Mosaic;
    let board = Board::Mosaic(Mosaic::new(7).expect("q in range"));
    let cells = [[0, 0, 0], [3, 0, 0], [4, 0, 0], [5, 0, 0]];
    let svg = gamecert::render::situation_svg("FAN4", &board, &cells, &[]).expect("a picture");
    assert_eq!(svg.matches("fill=\"#4a7ebb\"").count(), 4);
    let situation =
        gamecert::render::situation_svg("s1", &board, &cells[..2], &cells[2..]).expect("a picture");
    assert_eq!(situation.matches("fill=\"#4a7ebb\"").count(), 2);
    assert_eq!(situation.matches("fill=\"#f4d678\"").count(), 2);
}
