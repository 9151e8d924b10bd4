//! `gamecert render FILE --out DIR`: SVG pictures of the animals and boards
//! a file declares: plane cells as squares, triangles and hexagons (a finite
//! region's cells drawn too), cubes in an isometric view, solids as shaded
//! solids in a front and a back view ([`solid3d`]), graph boards as a planar
//! drawing of their graph ([`planar`]); the pairings and pavings of breaker
//! claims, the situations of proof sequences; and the dependency digraphs
//! of plain priority strategies in DOT ([`digraph`]).
//!
//! Key decision: the drawing works from the kernel's own cell coordinates
//! and corner geometry, so a picture shows exactly the cells the kernel
//! checks claims about.

pub mod digraph;
mod planar;
mod poincare;
pub mod solid3d;

use std::fmt::Write as _;

use crate::elaborate::DeclaredAnimal;
use crate::kernel::animals::Board;
use crate::kernel::animals::lattice::{Cell, Lattice};
use crate::kernel::animals::tiling::{Basis, Tiling};

/// Scale: pixels per unit edge.
const UNIT: f64 = 40.0;

/// The SVG of an animal on its board.
pub fn animal_svg(animal: &DeclaredAnimal) -> String {
    let (lattice, board_cells): (Lattice, &[Cell]) = match &animal.board {
        Board::Lattice(Lattice::Cubic) => return cubes_svg(&animal.name, &animal.cells),
        Board::Lattice(lattice) => (*lattice, &[]),
        Board::Mosaic(mosaic) => {
            return poincare::mosaic_svg(&animal.name, *mosaic, &animal.cells, &[]);
        }
        // On a finite region, its cells are drawn too (unfilled).
        Board::Region(region) => (region.lattice, region.cells()),
        Board::Solid(_) | Board::Graph(_) => {
            let faces: Vec<usize> = animal.cells.iter().map(|c| c[0] as usize).collect();
            return finite_svg(&animal.name, &animal.board, &faces);
        }
        Board::Tiling(tiling) => return tiling_svg(&animal.name, tiling, &animal.cells, &[]),
    };
    plane_svg(&animal.name, lattice, board_cells, &animal.cells)
}

/// The SVG of a declared finite board (its cells or faces, none filled);
/// `None` for the infinite lattices.
pub fn board_svg(name: &str, board: &Board) -> Option<String> {
    match board {
        Board::Lattice(_) => None,
        Board::Mosaic(mosaic) => Some(poincare::mosaic_svg(name, *mosaic, &[], &[])),
        Board::Tiling(tiling) => Some(tiling_svg(name, tiling, &[], &[])),
        Board::Region(region) => Some(plane_svg(name, region.lattice, region.cells(), &[])),
        Board::Solid(_) | Board::Graph(_) => Some(finite_svg(name, board, &[])),
    }
}

/// The SVG of a pairing on a solid: the goal's faces filled, each pair's
/// faces linked in its own colour (in a view where both are seen); `None`
/// on other boards.
pub fn pairing_svg(
    title: &str,
    board: &Board,
    goal: &[Cell],
    pairs: &[(Cell, Cell)],
) -> Option<String> {
    let (Board::Solid(_), Some(graph)) = (board, board.face_graph()) else {
        return None;
    };
    let face = |c: &Cell| usize::try_from(c[0]).ok();
    let filled: Vec<usize> = goal.iter().filter_map(face).collect();
    let links: Vec<(usize, usize)> = pairs
        .iter()
        .filter_map(|(u, w)| Some((face(u)?, face(w)?)))
        .collect();
    let shape = solid3d::Shape::of_board(&graph.adjacent);
    let marks = solid3d::Marks {
        filled: &filled,
        links: &links,
        ..Default::default()
    };
    Some(solid3d::svg(title, &shape, &marks))
}

/// The SVG of a situation of a proof sequence: the maker's core filled,
/// the rest of its neighbourhood (free cells) tinted; on a finite board
/// the other cells drawn plain. `None` on the cubic lattice.
pub fn situation_svg(
    title: &str,
    board: &Board,
    core: &[Cell],
    neighbourhood: &[Cell],
) -> Option<String> {
    let open: Vec<Cell> = neighbourhood
        .iter()
        .filter(|c| !core.contains(c))
        .copied()
        .collect();
    match board {
        Board::Lattice(Lattice::Cubic) => None,
        Board::Mosaic(mosaic) => Some(poincare::mosaic_svg(title, *mosaic, core, &open)),
        Board::Lattice(lattice) => Some(cells_svg(title, *lattice, &[], core, &open)),
        Board::Tiling(tiling) => Some(tiling_svg(title, tiling, core, &open)),
        Board::Region(region) => Some(cells_svg(
            title,
            region.lattice,
            region.cells(),
            core,
            &open,
        )),
        Board::Solid(_) | Board::Graph(_) => {
            let face = |c: &Cell| usize::try_from(c[0]).ok();
            let filled: Vec<usize> = core.iter().filter_map(face).collect();
            let open: Vec<usize> = open.iter().filter_map(face).collect();
            Some(faces_svg(title, board, &filled, &open))
        }
    }
}

/// The SVG of a periodic paving on a plane lattice: the cells of a window
/// of [`PAVING_WINDOW`] cells a side, each pair of the paving and its
/// translates by the period linked in the colour of its class. `None` off
/// the plane lattices and regions.
pub fn paving_svg(
    title: &str,
    board: &Board,
    pairs: &[(Cell, Cell)],
    period: &[Cell],
) -> Option<String> {
    let (lattice, window): (Lattice, Vec<Cell>) = match board {
        Board::Lattice(Lattice::Cubic)
        | Board::Solid(_)
        | Board::Graph(_)
        | Board::Tiling(_)
        | Board::Mosaic(_) => {
            return None;
        }
        Board::Lattice(lattice) => {
            let side = PAVING_WINDOW;
            let cells = (0..side)
                .flat_map(|y| (0..side).map(move |x| [x, y, 0]))
                .collect();
            (*lattice, cells)
        }
        Board::Region(region) => (region.lattice, region.cells().to_vec()),
    };
    // Every translate of a pair with a cell in the window.
    let reach = -PAVING_REACH..=PAVING_REACH;
    let shifts: Vec<Cell> = match period {
        [g] => reach.map(|k| [k * g[0], k * g[1], k * g[2]]).collect(),
        [g, h] => reach
            .clone()
            .flat_map(|i| {
                reach
                    .clone()
                    .map(move |j| [i * g[0] + j * h[0], i * g[1] + j * h[1], 0])
            })
            .collect(),
        _ => vec![[0, 0, 0]],
    };
    let add = |c: Cell, t: Cell| [c[0] + t[0], c[1] + t[1], c[2] + t[2]];
    let mut links = Vec::new();
    for (class, &(u, w)) in pairs.iter().enumerate() {
        for &t in &shifts {
            let (a, b) = (add(u, t), add(w, t));
            if window.contains(&a) || window.contains(&b) {
                links.push((
                    centre(&outline(lattice, a)),
                    centre(&outline(lattice, b)),
                    class,
                ));
            }
        }
    }
    let shapes: Vec<(Vec<(f64, f64)>, &str)> = window
        .iter()
        .map(|&c| (outline(lattice, c), "#ffffff"))
        .collect();
    Some(svg_with_links(title, &shapes, &links, &[]))
}

/// Cells a side of the window a lattice paving is drawn in.
const PAVING_WINDOW: i32 = 12;

/// Translates by up to this many periods each way are tried.
const PAVING_REACH: i32 = 24;

/// The colours of a paving's classes of pairs.
const CLASS_COLOURS: [&str; 8] = [
    "#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#17a589", "#cb4335", "#2c3e50",
];

/// The mean of a polygon's corners.
fn centre(points: &[(f64, f64)]) -> (f64, f64) {
    let n = points.len().max(1) as f64;
    let (x, y) = points
        .iter()
        .fold((0.0, 0.0), |(x, y), &(px, py)| (x + px, y + py));
    (x / n, y / n)
}

/// A solid drawn as a solid (front and back views); a graph board as its
/// graph. `filled`: the faces of an animal.
fn finite_svg(title: &str, board: &Board, filled: &[usize]) -> String {
    faces_svg(title, board, filled, &[])
}

/// [`finite_svg`] with the faces `open` tinted too.
fn faces_svg(title: &str, board: &Board, filled: &[usize], open: &[usize]) -> String {
    match (board, board.face_graph()) {
        (Board::Solid(_), Some(graph)) => {
            let shape = solid3d::Shape::of_board(&graph.adjacent);
            let marks = solid3d::Marks {
                filled,
                open,
                ..Default::default()
            };
            solid3d::svg(title, &shape, &marks)
        }
        _ => graph_svg(title, board, filled, open),
    }
}

/// Plane cells: the board's in white, the animal's filled.
fn plane_svg(title: &str, lattice: Lattice, board_cells: &[Cell], animal: &[Cell]) -> String {
    cells_svg(title, lattice, board_cells, animal, &[])
}

/// Plane cells: the board's in white, `open` tinted, `filled` in colour.
fn cells_svg(
    title: &str,
    lattice: Lattice,
    board_cells: &[Cell],
    filled: &[Cell],
    open: &[Cell],
) -> String {
    let mut shapes: Vec<(Vec<(f64, f64)>, &str)> = board_cells
        .iter()
        .filter(|c| !filled.contains(c) && !open.contains(c))
        .map(|&c| (outline(lattice, c), "#ffffff"))
        .collect();
    shapes.extend(open.iter().map(|&c| (outline(lattice, c), OPEN_TINT)));
    shapes.extend(filled.iter().map(|&c| (outline(lattice, c), FILLED)));
    svg(title, &shapes)
}

/// A window of a periodic tiling around `filled` and `open` (around the
/// origin when both are empty): every face of the unit cells one cell
/// beyond them, `open` tinted, `filled` in colour.
fn tiling_svg(title: &str, tiling: &Tiling, filled: &[Cell], open: &[Cell]) -> String {
    let marked: Vec<Cell> = filled.iter().chain(open).copied().collect();
    // A bare tiling shows about fifty faces.
    let spread = if marked.is_empty() {
        ((50.0 / tiling.faces() as f64).sqrt() / 2.0).ceil() as i32
    } else {
        1
    };
    let range = |i: usize| {
        let lo = marked.iter().map(|c| c[i]).min().unwrap_or(0) - spread;
        let hi = marked.iter().map(|c| c[i]).max().unwrap_or(0) + spread;
        lo..=hi
    };
    let basis = tiling.spec().basis;
    let plane = |p: [i64; 2]| match basis {
        Basis::Square => (p[0] as f64, -(p[1] as f64)),
        Basis::Hexagonal => (
            p[0] as f64 + p[1] as f64 / 2.0,
            -(p[1] as f64 * 3f64.sqrt() / 2.0),
        ),
    };
    // Drawn with the shortest side one unit long.
    let shortest = tiling
        .spec()
        .faces
        .iter()
        .flat_map(|f| (0..f.len()).map(move |i| (f[i], f[(i + 1) % f.len()])))
        .map(|(a, b)| {
            let (p, q) = (plane(a), plane(b));
            (p.0 - q.0).hypot(p.1 - q.1)
        })
        .fold(f64::MAX, f64::min);
    let outline = |c: Cell| -> Vec<(f64, f64)> {
        tiling
            .corners_of(c)
            .into_iter()
            .map(|p| {
                let (x, y) = plane(p);
                (x / shortest, y / shortest)
            })
            .collect()
    };
    let mut shapes = Vec::new();
    // A bare tiling numbers the faces of the unit cell at (0, 0), the
    // numbers cells `(x,y,f)` use.
    let mut labels = Vec::new();
    for y in range(1) {
        for x in range(0) {
            for f in 0..tiling.faces() as i32 {
                let c = [x, y, f];
                if marked.is_empty() && x == 0 && y == 0 {
                    let corners = outline(c);
                    let n = corners.len() as f64;
                    let centre = corners
                        .iter()
                        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
                    labels.push((centre, f.to_string()));
                }
                let fill = if filled.contains(&c) {
                    FILLED
                } else if open.contains(&c) {
                    OPEN_TINT
                } else {
                    "#ffffff"
                };
                shapes.push((outline(c), fill));
            }
        }
    }
    svg_with_links(title, &shapes, &[], &labels)
}

/// The colour of an animal's (or a situation core's) cells.
const FILLED: &str = "#4a7ebb";

/// The tint of a situation's free cells.
const OPEN_TINT: &str = "#f4d678";

/// A finite board's faces as numbered discs at the vertices of a planar
/// drawing of its face graph, an edge where two faces meet; the faces
/// `filled` in colour.
fn graph_svg(title: &str, board: &Board, filled: &[usize], open: &[usize]) -> String {
    let adjacent = board.face_graph().map(|g| g.adjacent).unwrap_or_default();
    let n = adjacent.len();
    // Larger boards get a larger disc, so neighbouring faces stay apart.
    let radius = UNIT * (2.0 + (n as f64).sqrt());
    let size = 2.0 * radius + 2.0 * UNIT;
    let centre = size / 2.0;
    let points: Vec<(f64, f64)> = planar::layout(&adjacent)
        .into_iter()
        .map(|(x, y)| (centre + radius * x, centre + radius * y))
        .collect();
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{size:.0}\" height=\"{size:.0}\" viewBox=\"0 0 {size:.1} {size:.1}\">\n<title>{}</title>\n",
        escape(title)
    );
    for (a, &set) in adjacent.iter().enumerate() {
        for b in (a + 1..n).filter(|&b| set >> b & 1 == 1) {
            let ((x1, y1), (x2, y2)) = (points[a], points[b]);
            let _ = writeln!(
                out,
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#8a9bb0\" stroke-width=\"1.5\"/>"
            );
        }
    }
    for (f, &(cx, cy)) in points.iter().enumerate() {
        let (fill, ink) = if filled.contains(&f) {
            (FILLED, "white")
        } else if open.contains(&f) {
            (OPEN_TINT, "#1d2b3a")
        } else {
            ("#ffffff", "#1d2b3a")
        };
        let _ = writeln!(
            out,
            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"{fill}\" stroke=\"#1d2b3a\" stroke-width=\"1.5\"/><text x=\"{cx:.1}\" y=\"{cy:.1}\" text-anchor=\"middle\" dominant-baseline=\"middle\" font-size=\"{:.0}\" fill=\"{ink}\">{f}</text>",
            UNIT * 0.3,
            UNIT * 0.3
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The corners of a plane cell, in drawing units (y grows downwards).
fn outline(lattice: Lattice, c: Cell) -> Vec<(f64, f64)> {
    let (x, y) = (f64::from(c[0]), f64::from(c[1]));
    match lattice {
        Lattice::Square | Lattice::Cubic => {
            vec![(x, -y), (x + 1.0, -y), (x + 1.0, -y - 1.0), (x, -y - 1.0)]
        }
        Lattice::Hexagon => {
            // Axial (q, r) to the plane: pointy-top hexagons.
            let (cx, cy) = (3f64.sqrt() * (x + y / 2.0), 1.5 * y);
            (0..6)
                .map(|k| {
                    let angle =
                        std::f64::consts::PI / 3.0 * f64::from(k) + std::f64::consts::PI / 6.0;
                    (cx + angle.cos(), -(cy + angle.sin()))
                })
                .collect()
        }
        Lattice::Triangle => {
            // Corners in the skew basis e1 = (1, 0), e2 = (1/2, sqrt 3 / 2),
            // as the kernel's triangle cells define them.
            let up = (c[0] + c[1]).rem_euclid(2) == 0;
            let corners: [[i32; 2]; 3] = if up {
                let i = (c[0] - c[1]).div_euclid(2);
                [[i, c[1]], [i + 1, c[1]], [i, c[1] + 1]]
            } else {
                let j = (c[0] - c[1] - 1).div_euclid(2);
                [[j + 1, c[1]], [j, c[1] + 1], [j + 1, c[1] + 1]]
            };
            corners
                .iter()
                .map(|&[a, b]| {
                    let (a, b) = (f64::from(a), f64::from(b));
                    (a + b / 2.0, -(b * 3f64.sqrt() / 2.0))
                })
                .collect()
        }
    }
}

/// An SVG document with the polygons filled, framed to fit.
fn svg(title: &str, shapes: &[(Vec<(f64, f64)>, &str)]) -> String {
    svg_with_links(title, shapes, &[], &[])
}

/// A line between two points, in the colour of a class.
type Link = ((f64, f64), (f64, f64), usize);

/// A text centred on a point.
type Label = ((f64, f64), String);

/// [`svg`] with lines drawn over the polygons, each between two points in
/// the colour of its class, and labels over both.
fn svg_with_links(
    title: &str,
    shapes: &[(Vec<(f64, f64)>, &str)],
    links: &[Link],
    labels: &[Label],
) -> String {
    let points = shapes.iter().flat_map(|(p, _)| p);
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in points {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    let margin = 0.5;
    let (w, h) = (
        (x1 - x0 + 2.0 * margin) * UNIT,
        (y1 - y0 + 2.0 * margin) * UNIT,
    );
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\">\n<title>{}</title>\n",
        escape(title)
    );
    for (polygon, fill) in shapes {
        let pts: Vec<String> = polygon
            .iter()
            .map(|&(x, y)| {
                format!(
                    "{:.1},{:.1}",
                    (x - x0 + margin) * UNIT,
                    (y - y0 + margin) * UNIT
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<polygon points=\"{}\" fill=\"{fill}\" stroke=\"#1d2b3a\" stroke-width=\"2\"/>",
            pts.join(" ")
        );
    }
    let at = |(x, y): (f64, f64)| ((x - x0 + margin) * UNIT, (y - y0 + margin) * UNIT);
    for &(a, b, class) in links {
        let ((x1, y1), (x2, y2)) = (at(a), at(b));
        let colour = CLASS_COLOURS[class % CLASS_COLOURS.len()];
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"{colour}\" stroke-width=\"5\" stroke-linecap=\"round\"/>"
        );
    }
    for (point, text) in labels {
        let (x, y) = at(*point);
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"16\" text-anchor=\"middle\" dominant-baseline=\"middle\" fill=\"#1d2b3a\">{}</text>",
            escape(text)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Cubes in an isometric view, drawn back to front.
fn cubes_svg(title: &str, cells: &[Cell]) -> String {
    let mut sorted = cells.to_vec();
    // Farther cubes first: smaller x + y, then lower z.
    sorted.sort_by_key(|c| (c[0] + c[1], c[2]));
    let project = |x: f64, y: f64, z: f64| ((x - y) * 0.866, (x + y) * 0.5 - z);
    let mut polygons = Vec::new();
    for c in &sorted {
        let (x, y, z) = (f64::from(c[0]), f64::from(c[1]), f64::from(c[2]));
        let top = vec![
            project(x, y, z + 1.0),
            project(x + 1.0, y, z + 1.0),
            project(x + 1.0, y + 1.0, z + 1.0),
            project(x, y + 1.0, z + 1.0),
        ];
        let left = vec![
            project(x, y + 1.0, z),
            project(x + 1.0, y + 1.0, z),
            project(x + 1.0, y + 1.0, z + 1.0),
            project(x, y + 1.0, z + 1.0),
        ];
        let right = vec![
            project(x + 1.0, y, z),
            project(x + 1.0, y + 1.0, z),
            project(x + 1.0, y + 1.0, z + 1.0),
            project(x + 1.0, y, z + 1.0),
        ];
        polygons.extend([top, left, right]);
    }
    let shapes: Vec<(Vec<(f64, f64)>, &str)> =
        polygons.into_iter().map(|p| (p, "#4a7ebb")).collect();
    svg(title, &shapes)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
