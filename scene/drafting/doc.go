// Package drafting is the drafting room: the tables a drawing's properties are chosen from
// and the geometry that draws them, as pure data and functions of plain values. It holds the
// linetypes a stroke may have (Linetypes, Dashes) and the hatch patterns a closed shape may
// have (HatchPatterns, HatchPattern.Placed), as acad.lin and acad.pat define them; a hatch's
// lines clipped to an area given as rings (ClipHatch); and a dimension laid out from its
// world points and its label (LinearDim, RadialDim, AngularDim, FormatDimValue): its lines,
// arrows and where its text stands (DimText).
//
// Start with LookupLinetype and LookupHatch, which check a name and say which names there
// are. Nothing here knows a shape or a scene: what a scene does with these (an entity's
// linetype, layer and hatch, the dash and hatch budgets, which shapes are hatched and with
// which rings, the Dimension shape and its layouts kept for one write) is package scene's,
// which calls them.
package drafting
